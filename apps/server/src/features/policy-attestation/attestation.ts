import { createHash } from 'node:crypto';
import {
  answeredPage,
  aupMessages,
  aupReportCsvColumns,
  notAcceptedCsvColumns,
  pageRequest,
  type AupReportPage,
  type AupReportRow,
  type AupVersion,
  type MyAup,
  type NotAcceptedPage,
  type NotAcceptedRow,
  type PublishAupBody,
} from '@pra/contracts';
import { csvLine } from '@pra/contracts/csv';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import { addDays, localDate } from '../../platform/local-time';
import { recordAudit } from '../../identity/audit';
import { enqueueMail } from '../../identity/outbox';
import { mailSite } from '../../identity/mail-templates';
import { aupPublishedMail } from '../../identity/governance/aup-mails';
import { standingNow, standingOf, termsOf, type Standing } from '../../identity/governance/aup';
import { readPolicyBook } from '../../identity/governance/sweep';
import * as aup from '../../store/aup';

// The Acceptable Use Policy calls (GOVERNANCE.md §8): a vendor reads and accepts the newest
// version; admins publish versions and see who has not accepted; auditors read the report.

type Actor = Pick<Account, 'id' | 'username'>;
const MAX_PUBLISH_TRIES = 5;
const MAIL_BATCH = 500;

const now = (ctx: AppContext) => ({ at: ctx.clock.now(), zone: ctx.config.PORTAL_TIME_ZONE });

function versionOut(v: aup.AupVersionRow): AupVersion {
  return {
    version: v.version,
    title: v.title,
    bodyMd: v.body_md,
    effectiveOn: v.effective_on,
    sha256: v.sha256,
    publishedAt: v.published_at.toISOString(),
    publishedBy: v.published_by_username,
  };
}

function standingOut(s: Standing) {
  return {
    state: s.state,
    acceptedVersion: s.acceptedVersion,
    acceptedOn: s.acceptedOn,
    dueOn: s.dueOn,
    blocksAfter: s.blocksAfter,
    reviewBy: s.reviewBy,
  };
}

/** GET /api/vendor/aup. */
export async function myAup(ctx: AppContext, account: Account): Promise<MyAup> {
  const { at, zone } = now(ctx);
  const found = await standingNow(ctx.db, account.id, await readPolicyBook(ctx.db), at, zone);
  if (!found) throw new AppError('forbidden', aupMessages.notAsked);
  return { policy: versionOut(found.versions.at(-1)!), standing: standingOut(found.standing) };
}

/**
 * POST /api/vendor/aup/accept: records the acceptance of the newest version (another version is
 * refused: one was published meanwhile) and lifts the block, under the account's row lock.
 */
export async function acceptAup(
  ctx: AppContext,
  account: Account,
  version: number,
  clientAddress: string,
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    await aup.lockAccount(tx, account.id);
    const versions = await aup.listVersions(tx);
    const newest = versions.at(-1)!;
    if (version !== newest.version) throw new AppError('conflict', aupMessages.notNewest);
    await aup.recordAcceptance(tx, {
      accountId: account.id,
      versionId: newest.id,
      at: ctx.clock.now(),
      clientAddress,
    });
    await recordAudit(tx, {
      action: 'aup.accept',
      outcome: 'success',
      actor: { id: account.id, username: account.username },
      target: { id: account.id, username: account.username },
      clientAddress,
      details: { version: newest.version },
    });
  });
}

/** GET /api/admin/aup/versions, newest first. */
export async function versions(ctx: AppContext): Promise<{ versions: AupVersion[] }> {
  return { versions: (await aup.listVersions(ctx.db)).map(versionOut).reverse() };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown }).code === '23505';
}

/**
 * POST /api/admin/aup/versions: the next version number (two admins at once each get their own:
 * the unique number refuses the second insert, which is tried again), audited `aup.publish`, and
 * U2 to every vendor asked to accept it, in one transaction.
 */
export async function publish(
  ctx: AppContext,
  actor: Actor,
  body: PublishAupBody,
  clientAddress: string,
): Promise<AupVersion> {
  const { at, zone } = now(ctx);
  const today = localDate(at, zone);
  if (body.effectiveOn < today) throw new AppError('badRequest', aupMessages.effectivePast);
  if (body.effectiveOn > addDays(today, 365)) throw new AppError('badRequest', aupMessages.effectiveTooFar);
  const sha256 = createHash('sha256').update(body.bodyMd, 'utf8').digest('hex');
  for (let attempt = 1; ; attempt += 1) {
    try {
      const id = await ctx.db.transaction().execute(async (tx) => {
        const made = await aup.insertNextVersion(tx, {
          title: body.title,
          bodyMd: body.bodyMd,
          sha256,
          effectiveOn: body.effectiveOn,
          at,
          by: actor.id,
        });
        await recordAudit(tx, {
          action: 'aup.publish',
          outcome: 'success',
          actor,
          clientAddress,
          details: { version: made.version, sha256, effectiveOn: body.effectiveOn, title: body.title },
        });
        const site = mailSite(ctx);
        for (let after: string | null = null; ;) {
          const batch = await aup.askedVendorEmails(tx, after, MAIL_BATCH);
          for (const v of batch) {
            await enqueueMail(tx, {
              to: v.email,
              ...aupPublishedMail(site, {
                firstName: v.given_name,
                version: made.version,
                effectiveOn: body.effectiveOn,
              }),
            });
          }
          if (batch.length < MAIL_BATCH) break;
          after = batch.at(-1)!.id;
        }
        return made.id;
      });
      const made = (await aup.listVersions(ctx.db)).find((v) => v.id === id)!;
      return versionOut(made);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= MAX_PUBLISH_TRIES) throw error;
    }
  }
}

/** Every asked vendor with their standing. */
async function standings(ctx: AppContext, filter: string) {
  const { at, zone } = now(ctx);
  const [facts, versionRows, policies] = await Promise.all([
    aup.askedVendorFacts(ctx.db, filter),
    aup.listVersions(ctx.db),
    readPolicyBook(ctx.db),
  ]);
  return facts.map((f) => ({ f, s: standingOf(f, versionRows, termsOf(policies, f.tier), at, zone) }));
}

type Compare<T> = (a: T, b: T) => number;
const byText = (a: string, b: string) => a.localeCompare(b);
const nameOf = (f: aup.AupFacts) => `${f.family_name} ${f.given_name}`.trim();

function notAcceptedRow({ f, s }: { f: aup.AupFacts; s: Standing }): NotAcceptedRow {
  return {
    username: f.username,
    vendor: `${f.given_name} ${f.family_name}`.trim(),
    email: f.email,
    organizations: f.organizations,
    state: s.state === 'overdue' ? 'overdue' : 'due',
    acceptedVersion: s.acceptedVersion,
    acceptedOn: s.acceptedOn,
    dueOn: s.dueOn,
    blocksAfter: s.blocksAfter,
  };
}

async function notAcceptedRows(ctx: AppContext, filter: string, sort: string, direction: 'asc' | 'desc') {
  const rows = (await standings(ctx, filter)).filter((r) => r.s.state !== 'current');
  const compare: Record<string, Compare<(typeof rows)[number]>> = {
    vendor: (a, b) => byText(nameOf(a.f), nameOf(b.f)),
    organization: (a, b) => byText(a.f.organizations, b.f.organizations),
    dueOn: (a, b) => byText(a.s.dueOn, b.s.dueOn),
    state: (a, b) => byText(a.s.state, b.s.state),
  };
  const sign = direction === 'desc' ? -1 : 1;
  rows.sort((a, b) => sign * (compare[sort]!(a, b) || byText(a.f.username, b.f.username)));
  return rows.map(notAcceptedRow);
}

/** GET /api/admin/aup/not-accepted. */
export async function notAcceptedPage(
  ctx: AppContext,
  query: Parameters<typeof pageRequest<'vendor' | 'organization' | 'dueOn' | 'state'>>[0],
): Promise<NotAcceptedPage> {
  const asked = pageRequest(query, 25);
  const total = (await notAcceptedRows(ctx, '', 'dueOn', 'asc')).length;
  const rows = await notAcceptedRows(ctx, asked.filter, asked.sort ?? 'dueOn', asked.direction);
  const page = answeredPage(asked.page, asked.size, rows.length);
  const newest = (await aup.listVersions(ctx.db)).at(-1)!.version;
  return {
    items: rows.slice((page - 1) * asked.size, page * asked.size),
    total,
    matching: rows.length,
    page,
    size: asked.size,
    newestVersion: newest,
  };
}

/** A CSV export, audited `report.export` (which report, its filters, how many rows). */
async function exportCsv(
  ctx: AppContext,
  actor: Actor,
  clientAddress: string,
  report: string,
  filter: string,
  header: readonly string[],
  lines: string[][],
): Promise<string> {
  await recordAudit(ctx.db, {
    action: 'report.export',
    outcome: 'success',
    actor,
    clientAddress,
    details: { report, filter, rows: lines.length },
  });
  return [csvLine([...header]), ...lines.map(csvLine)].join('');
}

/** GET /api/admin/aup/not-accepted.csv. */
export async function notAcceptedCsv(ctx: AppContext, actor: Actor, filter: string, clientAddress: string) {
  const rows = await notAcceptedRows(ctx, filter.trim(), 'dueOn', 'asc');
  return exportCsv(
    ctx,
    actor,
    clientAddress,
    'aup-not-accepted',
    filter,
    notAcceptedCsvColumns,
    rows.map((r) => [
      r.username,
      r.vendor,
      r.email,
      r.organizations,
      r.state,
      r.acceptedVersion === null ? '' : String(r.acceptedVersion),
      r.acceptedOn ?? '',
      r.dueOn,
      r.blocksAfter,
    ]),
  );
}

async function reportRows(ctx: AppContext, filter: string, sort: string, direction: 'asc' | 'desc') {
  const rows = await standings(ctx, filter);
  const time = (f: aup.AupFacts) => f.accepted_at?.getTime() ?? 0;
  const compare: Record<string, Compare<(typeof rows)[number]>> = {
    vendor: (a, b) => byText(nameOf(a.f), nameOf(b.f)),
    acceptedAt: (a, b) => time(a.f) - time(b.f),
    version: (a, b) => (a.f.accepted_version ?? 0) - (b.f.accepted_version ?? 0),
  };
  const sign = direction === 'desc' ? -1 : 1;
  rows.sort((a, b) => sign * (compare[sort]!(a, b) || byText(a.f.username, b.f.username)));
  return rows.map(({ f, s }): AupReportRow => ({
    username: f.username,
    vendor: `${f.given_name} ${f.family_name}`.trim(),
    email: f.email,
    organizations: f.organizations,
    version: f.accepted_version,
    acceptedAt: f.accepted_at?.toISOString() ?? null,
    clientAddress: f.client_address,
    state: s.state,
  }));
}

/** GET /api/admin/reports/aup: per vendor, the version accepted, when and from which address. */
export async function aupReportPage(
  ctx: AppContext,
  query: Parameters<typeof pageRequest<'vendor' | 'acceptedAt' | 'version'>>[0],
): Promise<AupReportPage> {
  const asked = pageRequest(query, 25);
  const total = asked.filter ? (await aup.askedVendorFacts(ctx.db)).length : undefined;
  const rows = await reportRows(ctx, asked.filter, asked.sort ?? 'vendor', asked.direction);
  const page = answeredPage(asked.page, asked.size, rows.length);
  return {
    items: rows.slice((page - 1) * asked.size, page * asked.size),
    total: total ?? rows.length,
    matching: rows.length,
    page,
    size: asked.size,
  };
}

/** GET /api/admin/reports/aup.csv. */
export async function aupReportCsv(ctx: AppContext, actor: Actor, filter: string, clientAddress: string) {
  const rows = await reportRows(ctx, filter.trim(), 'vendor', 'asc');
  return exportCsv(
    ctx,
    actor,
    clientAddress,
    'aup',
    filter,
    aupReportCsvColumns,
    rows.map((r) => [
      r.username,
      r.vendor,
      r.email,
      r.organizations,
      r.version === null ? '' : String(r.version),
      r.acceptedAt ?? '',
      r.clientAddress ?? '',
      r.state,
    ]),
  );
}

/** The file names: `{report}-{today}.csv`. */
export function csvFileName(ctx: AppContext, report: string): string {
  return `${report}-${localDate(ctx.clock.now(), ctx.config.PORTAL_TIME_ZONE)}.csv`;
}
