import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminSystemMessage } from '@pra/contracts';
import type { Config } from '../../config';
import { AppError } from '../../platform/app-error';
import { passwordPolicy, passwordProblems } from '../../identity/password-policy';
import { hashPassword } from '../../identity/passwords';
import { findAccountByUsername } from '../../store/accounts';
import { recordAudit } from '../../identity/audit';
import { buildSchema, schemaIsCurrent, type Db } from '../../platform/db';
import type { Actor } from './actor';
import { auditExport } from './audit-export';
import { purgeAudit, retentionCutoff } from './audit-trail';
import { importCsv } from './csv-import';
import {
  changeOrganization,
  createOrganization,
  addDomain,
  removeDomain,
  requireOrganization,
} from './organizations';
import { assignBrm, changePerson, createPerson, requireEmployee, unassignBrm } from './people';
import { setPasswordHash } from '../../store/accounts';
import { listOrganizations } from '../../store/organizations';
import { clearedSystemMessage, readAdminSystemMessage, setMaintenance, writeSystemMessage } from './settings';
import { isInMaintenance } from '../../identity/maintenance';
import { systemClock, type Clock } from '../../platform/clock';
import { createServiceToken, listTokens, revokeToken } from './service-tokens';
import { createIdentityStore } from '../../platform/directory/create-store';
import { formatDriftReport, reconcileDirectory } from '../../identity/directory/reconcile';
import { governanceClock, governanceStatus, sweepNow } from '../../identity/governance/sweeper';
import {
  campaignAction,
  evidenceOf,
  previewCycle,
  reviewSweep,
  startCycle,
} from '../../identity/governance/reviews';
import type { ReviewPreview } from '@pra/contracts';
import { siteOf } from '../../identity/governance/access-expiry';
import { applyTransfer, planTransfer, type SuccessorChoice } from '../../identity/governance/transfer';

/**
 * The operators' commands (`npm run admin -- <command>`), as functions of the database so tests
 * run them without a process. Each returns what it prints; a refusal is an AppError (exit 1).
 */

export interface CliContext {
  db: Db;
  config: Config;
  actor: Actor;
  /** Writes a line (or chunk) of output. */
  out(text: string): void;
  /** Reads standard input (a password, a CSV file given as -). */
  readStdin(): Promise<string>;
  /** The clock time-based decisions read (default: the system clock). */
  clock?: Clock;
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  help: string;
}

export interface Command {
  summary: string;
  usage: string;
  args: string[];
  options: Record<string, OptionSpec>;
  run(
    ctx: CliContext,
    args: string[],
    options: Record<string, string | string[] | boolean | undefined>,
  ): Promise<void>;
}

/** Bad use of a command: exit code 2 with the command's help. */
export class UsageError extends Error {}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const strs = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

function need(options: Record<string, unknown>, name: string): string {
  const value = str(options[name]);
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

const personOptions: Record<string, OptionSpec> = {
  email: { type: 'string', help: 'email address (required for a new person)' },
  'given-name': { type: 'string', help: 'given name (required for a new person)' },
  'family-name': { type: 'string', help: 'family name (required for a new person)' },
};

async function upsertEmployee(
  ctx: CliContext,
  username: string,
  options: Record<string, unknown>,
  flags: { isAdmin?: boolean; isEmployeeBrm?: boolean },
) {
  return ctx.db.transaction().execute(async (t) => {
    const existing = await findAccountByUsername(t, username);
    if (existing) {
      const person = await requireEmployee(t, { id: existing.id });
      await changePerson(t, ctx.actor, person, flags);
      return { person, created: false };
    }
    const person = await createPerson(t, ctx.actor, {
      username,
      email: need(options, 'email'),
      givenName: need(options, 'given-name'),
      familyName: need(options, 'family-name'),
      isAdmin: flags.isAdmin ?? false,
      isEmployeeBrm: flags.isEmployeeBrm ?? false,
    });
    return { person, created: true };
  });
}

function parseTime(value: string | undefined, name: string): string | null {
  if (!value) return null;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new UsageError(`--${name} must be a date or time like 2026-12-01 or 2026-12-01T08:00:00Z`);
  return time.toISOString();
}

const DAY_MS = 24 * 3600_000;

/** A token's expiry from --expires (a date: the end of that day, UTC) or --days (default 90). */
function tokenExpiry(options: Record<string, unknown>, now: Date): string {
  const expires = str(options.expires);
  if (expires) {
    const value = /^\d{4}-\d{2}-\d{2}$/.test(expires) ? `${expires}T23:59:59Z` : expires;
    return parseTime(value, 'expires') ?? '';
  }
  const days = Number(str(options.days) ?? '90');
  if (!Number.isInteger(days) || days < 1)
    throw new UsageError('--days is a whole number of days, 1 or more');
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

export const commands: Record<string, Command> = {
  migrate: {
    summary:
      'Apply the database migrations this build carries and exit (run it as the database owner before starting a new build)',
    usage: 'migrate',
    args: [],
    options: {},
    // The CLI migrates as it opens the database, reporting each migration it applies.
    async run(ctx) {
      if (!(await schemaIsCurrent(ctx.db))) throw new Error('the schema is not up to date after migrating');
      ctx.out(`Database schema ${buildSchema}: up to date.\n`);
    },
  },
  'create-admin': {
    summary: 'Create the first admin (or make an existing employee admin), matched to the IdP by username',
    usage: 'create-admin <username> --email a@hospital.example --given-name Alex --family-name Morgan',
    args: ['username'],
    options: personOptions,
    async run(ctx, [username], options) {
      const { created } = await upsertEmployee(ctx, username!, options, { isAdmin: true });
      ctx.out(`${created ? 'Created' : 'Updated'} admin ${username}.\n`);
      if (ctx.config.idp === 'builtin') {
        ctx.out(
          `The built-in IdP signs people in with a password: set one with \`set-password ${username}\`.\n`,
        );
      }
    },
  },
  'add-person': {
    summary: 'Add a hospital employee (or change one) with BRM and admin flags',
    usage: 'add-person <username> --email … --given-name … --family-name … [--brm] [--admin]',
    args: ['username'],
    options: {
      ...personOptions,
      brm: { type: 'boolean', help: 'is an employee BRM' },
      admin: { type: 'boolean', help: 'is an admin' },
    },
    async run(ctx, [username], options) {
      const { created } = await upsertEmployee(ctx, username!, options, {
        ...(options.brm !== undefined && { isEmployeeBrm: Boolean(options.brm) }),
        ...(options.admin !== undefined && { isAdmin: Boolean(options.admin) }),
      });
      ctx.out(`${created ? 'Added' : 'Updated'} ${username}.\n`);
    },
  },
  'set-password': {
    summary: "Set an employee's password for the built-in IdP (standalone); read from standard input",
    usage: 'set-password <username>   (echo "the password" | …)',
    args: ['username'],
    options: {},
    async run(ctx, [username]) {
      if (ctx.config.idp !== 'builtin') {
        throw new AppError(
          'badRequest',
          'Passwords are kept by your IdP: IDP is external, so the portal has none to set.',
        );
      }
      const password = (await ctx.readStdin()).replace(/\r?\n$/, '');
      const found = await requireEmployee(ctx.db, { username: username! });
      const problems = passwordProblems(password, passwordPolicy(ctx.config, found.username, found));
      if (problems.length > 0) throw AppError.many('badRequest', problems);
      const hash = await hashPassword(password);
      await ctx.db.transaction().execute(async (t) => {
        const person = await requireEmployee(t, { id: found.id });
        await setPasswordHash(t, person.id, hash);
        await recordAudit(t, {
          action: 'password.set',
          outcome: 'success',
          actor: ctx.actor,
          target: person,
          clientAddress: ctx.actor.clientAddress,
        });
      });
      ctx.out(`Password set for ${username}.\n`);
    },
  },
  'org-list': {
    summary: 'List organizations with their domains and BRMs',
    usage: 'org-list [--filter text]',
    args: [],
    options: { filter: { type: 'string', help: 'part of a name or domain' } },
    async run(ctx, _args, options) {
      for (const org of await listOrganizations(ctx.db, str(options.filter))) {
        ctx.out(
          `${org.name}${org.is_active ? '' : ' (inactive)'}\tdomains: ${org.domains.join(' ') || '-'}\tBRMs: ${org.brms.join(' ') || '-'}\n`,
        );
      }
    },
  },
  'org-add': {
    summary: 'Add an organization with its email domains',
    usage: 'org-add <name> --domain vendor.example [--domain other.example]',
    args: ['name'],
    options: { domain: { type: 'string', multiple: true, help: 'an email domain (repeatable)' } },
    async run(ctx, [name], options) {
      const org = await ctx.db
        .transaction()
        .execute((t) => createOrganization(t, ctx.actor, { name: name!, domains: strs(options.domain) }));
      ctx.out(`Added organization "${org.name}".\n`);
    },
  },
  'org-change': {
    summary: 'Rename, deactivate/reactivate an organization, add or remove domains',
    usage:
      'org-change <name> [--rename new] [--deactivate|--reactivate] [--add-domain d] [--remove-domain d] [--risk-tier standard|high] [--contract-ends-on YYYY-MM-DD|none]',
    args: ['name'],
    options: {
      rename: { type: 'string', help: 'the new name (the access role name follows)' },
      deactivate: { type: 'boolean', help: 'takes no registrations or requests any more' },
      reactivate: { type: 'boolean', help: 'active again' },
      'add-domain': { type: 'string', multiple: true, help: 'an email domain to add (repeatable)' },
      'remove-domain': { type: 'string', multiple: true, help: 'an email domain to remove (repeatable)' },
      'risk-tier': { type: 'string', help: 'the governance policy tier: standard or high' },
      'contract-ends-on': {
        type: 'string',
        help: 'no grant ends later than this date (hospital time); "none" removes it',
      },
    },
    async run(ctx, [name], options) {
      if (options.deactivate && options.reactivate)
        throw new UsageError('--deactivate and --reactivate together');
      const isActive = options.deactivate ? false : options.reactivate ? true : undefined;
      const contract = str(options['contract-ends-on']);
      const terms = {
        ...(options['risk-tier'] === undefined ? {} : { riskTier: str(options['risk-tier']) as 'standard' }),
        ...(contract === undefined ? {} : { contractEndsOn: contract === 'none' ? null : contract }),
      };
      const time = { now: (ctx.clock ?? systemClock).now(), zone: ctx.config.PORTAL_TIME_ZONE };
      const org = await ctx.db.transaction().execute(async (t) => {
        const org = await requireOrganization(t, { name: name! });
        for (const d of strs(options['add-domain'])) await addDomain(t, ctx.actor, org, d);
        for (const d of strs(options['remove-domain'])) await removeDomain(t, ctx.actor, org, d);
        return changeOrganization(
          t,
          ctx.actor,
          { id: org.id },
          { name: str(options.rename), isActive, ...terms },
          time,
        );
      });
      ctx.out(`Changed organization "${org.name}".\n`);
      if (org.grantsPastContractEnd > 0)
        ctx.out(
          `${org.grantsPastContractEnd} current grant(s) end after the contract end; they are not shortened.\n`,
        );
    },
  },
  'brm-assign': {
    summary: 'Make an employee BRM of an organization',
    usage: 'brm-assign <username> <organization>',
    args: ['username', 'organization'],
    options: {},
    async run(ctx, [username, organization]) {
      await ctx.db.transaction().execute(async (t) => {
        const person = await requireEmployee(t, { username: username! });
        await assignBrm(t, ctx.actor, person, { name: organization! });
      });
      ctx.out(`${username} is BRM of "${organization}".\n`);
    },
  },
  'brm-remove': {
    summary: 'Remove an employee as BRM of an organization (refused if it is the last one)',
    usage: 'brm-remove <username> <organization>',
    args: ['username', 'organization'],
    options: {},
    async run(ctx, [username, organization]) {
      await ctx.db.transaction().execute(async (t) => {
        const person = await requireEmployee(t, { username: username! });
        await unassignBrm(t, ctx.actor, person, { name: organization! });
      });
      ctx.out(`${username} is no longer BRM of "${organization}".\n`);
    },
  },
  import: {
    summary: 'Import organizations and BRM assignments from CSV (dry run unless --apply)',
    usage:
      'import <file.csv|-> [--apply]   columns: organization,domains,brm_username,brm_email,brm_given_name,brm_family_name',
    args: ['file'],
    options: { apply: { type: 'boolean', help: 'write the changes (without it nothing is written)' } },
    async run(ctx, [file], options) {
      const text = file === '-' ? await ctx.readStdin() : readFileSync(file!, 'utf8');
      const report = await importCsv(ctx.db, ctx.actor, text, options.apply === true);
      for (const line of report.lines) ctx.out(`${line}\n`);
      if (report.errors > 0)
        throw new AppError('badRequest', `${report.errors} row(s) with errors: nothing was written.`);
      ctx.out(
        report.applied ? 'Applied.\n' : 'Dry run: nothing was written. Run again with --apply to write it.\n',
      );
    },
  },
  'message-set': {
    summary: 'Set the system message shown on every page',
    usage:
      'message-set --text "…" [--title …] [--severity info|success|warning|danger] [--logged-in-only] [--starts …] [--ends …]',
    args: [],
    options: {
      text: { type: 'string', help: 'the message' },
      title: { type: 'string', help: 'a title' },
      severity: { type: 'string', help: 'info (default), success, warning or danger' },
      'logged-in-only': { type: 'boolean', help: 'shown to signed-in people only' },
      starts: { type: 'string', help: 'shown from this time (ISO 8601)' },
      ends: { type: 'string', help: 'shown until this time (ISO 8601)' },
    },
    async run(ctx, _args, options) {
      const parsed = adminSystemMessage.safeParse({
        enabled: true,
        loggedInOnly: options['logged-in-only'] === true,
        severity: str(options.severity) ?? 'info',
        title: str(options.title) ?? '',
        text: need(options, 'text'),
        startsAt: parseTime(str(options.starts), 'starts'),
        endsAt: parseTime(str(options.ends), 'ends'),
      });
      if (!parsed.success)
        throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      await ctx.db.transaction().execute((t) => writeSystemMessage(t, ctx.actor, parsed.data));
      ctx.out('System message set.\n');
    },
  },
  'message-clear': {
    summary: 'Remove the system message',
    usage: 'message-clear',
    args: [],
    options: {},
    async run(ctx) {
      await ctx.db.transaction().execute((t) => writeSystemMessage(t, ctx.actor, clearedSystemMessage));
      ctx.out('System message cleared.\n');
    },
  },
  'message-show': {
    summary: 'Show the system message',
    usage: 'message-show',
    args: [],
    options: {},
    async run(ctx) {
      ctx.out(`${JSON.stringify(await readAdminSystemMessage(ctx.db), null, 2)}\n`);
    },
  },
  maintenance: {
    summary: 'Put account management into maintenance, or back (on|off|status)',
    usage: 'maintenance on|off|status',
    args: ['state'],
    options: {},
    async run(ctx, [state]) {
      if (state === 'on' || state === 'off') {
        await ctx.db.transaction().execute((t) => setMaintenance(t, ctx.actor, state === 'on'));
      } else if (state !== 'status') {
        throw new UsageError('say on, off or status');
      }
      const on = await isInMaintenance(ctx);
      ctx.out(
        `Account management: ${on ? 'maintenance' : 'available'}${ctx.config.IIQ_MAINTENANCE ? ' (forced by IIQ_MAINTENANCE)' : ''}.\n`,
      );
    },
  },
  'directory-reconcile': {
    summary: "Compare the portal's vendors with the hospital's directory (dry run unless --apply)",
    usage: 'directory-reconcile [--apply] [--json]',
    args: [],
    options: {
      apply: { type: 'boolean', help: 'make the directory match the portal (audited)' },
      json: { type: 'boolean', help: 'print the report as JSON' },
    },
    async run(ctx, _args, options) {
      if (ctx.config.IDENTITY_STORE !== 'ldap') {
        throw new AppError(
          'badRequest',
          'IDENTITY_STORE is builtin: the portal is the directory, there is nothing to reconcile',
        );
      }
      const store = createIdentityStore(ctx.config);
      try {
        const report = await reconcileDirectory(ctx.db, store, systemClock, {
          apply: options.apply === true,
          actor: ctx.actor,
          clientAddress: ctx.actor.clientAddress,
        });
        ctx.out(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatDriftReport(report));
      } finally {
        await store.close();
      }
    },
  },
  governance: {
    summary: 'Run the governance sweep now, or show what it did last and what falls due in 24 h (run|status)',
    usage: 'governance run|status',
    args: ['action'],
    options: {},
    async run(ctx, [action]) {
      if (action !== 'run' && action !== 'status') throw new UsageError('say run or status');
      const log = {
        info: () => undefined,
        warn: (_fields: unknown, message?: string) => ctx.out(`warning: ${message ?? ''}\n`),
        error: (fields: unknown, message?: string) =>
          ctx.out(`error: ${message ?? ''} ${fields instanceof Error ? fields.message : ''}\n`),
      };
      const deps = { db: ctx.db, clock: await governanceClock(ctx.db, ctx.config), config: ctx.config, log };
      if (action === 'run') {
        const result = await sweepNow(deps, `cli:${ctx.actor.username}`);
        await recordAudit(ctx.db, {
          action: 'governance.run',
          outcome: result.ran ? 'success' : 'failure',
          actor: ctx.actor,
          details: { at: result.at.toISOString(), ran: result.ran, via: 'cli' },
        });
        if (!result.ran)
          throw new AppError('conflict', 'Another instance is sweeping now; try again in a few minutes.');
        ctx.out(`Swept at ${result.at.toISOString()}.\n`);
        for (const [step, outcome] of Object.entries(result.steps)) {
          ctx.out(
            `  ${step}: ${'error' in outcome ? `failed: ${outcome.error}` : `${outcome.done} done, ${outcome.failed} failed`}\n`,
          );
        }
        return;
      }
      const status = await governanceStatus(deps);
      ctx.out(`Now: ${status.now.toISOString()}\n`);
      ctx.out(
        status.lease.sweeping
          ? `Sweeping now: ${status.lease.owner} (lease until ${status.lease.leasedUntil.toISOString()}).\n`
          : 'Not sweeping now.\n',
      );
      ctx.out(
        `Last sweep: ${status.lastStartedAt?.toISOString() ?? 'never'}${status.lastFinishedAt ? `, finished ${status.lastFinishedAt.toISOString()}` : ''}.\n`,
      );
      ctx.out('Due in the next 24 h:\n');
      for (const [step, count] of Object.entries(status.due)) ctx.out(`  ${step}: ${count}\n`);
    },
  },
  reviews: {
    summary: 'Access reviews: preview or start a review cycle, close a campaign now, export its evidence',
    usage:
      'reviews preview|start [--name N] [--orgs "A, B"] [--due-days 14] [--default remove|keep|recommendation] [--no-vendor-confirmation] | preview --cycle ID | close --campaign ID | export --campaign ID [--out DIR]',
    args: ['action'],
    options: {
      name: { type: 'string', help: 'the cycle’s name (start)' },
      orgs: { type: 'string', help: 'organization names, comma-separated (default: all active)' },
      'due-days': { type: 'string', help: 'days until decisions are due (default: from the tier)' },
      default: { type: 'string', help: 'if no decision: remove (default), keep or recommendation' },
      'no-vendor-confirmation': { type: 'boolean', help: 'do not ask vendors to confirm' },
      cycle: { type: 'string', help: 'a cycle id (preview of its open campaigns)' },
      campaign: { type: 'string', help: 'a campaign id (close, export)' },
      out: { type: 'string', help: 'folder for evidence.csv and evidence.json (default: current folder)' },
    },
    async run(ctx, [action], options) {
      const log = {
        info: () => undefined,
        warn: (_fields: unknown, message?: string) => ctx.out(`warning: ${message ?? ''}\n`),
        error: (_fields: unknown, message?: string) => ctx.out(`error: ${message ?? ''}\n`),
      };
      const sweep = await reviewSweep({
        db: ctx.db,
        clock: await governanceClock(ctx.db, ctx.config),
        config: ctx.config,
        log,
      });
      const printPreview = (preview: ReviewPreview) => {
        ctx.out(
          'Organization\tItems\tDecided\tWould be removed if no one decides\tAccounts that would be disabled\tWould be kept\n',
        );
        for (const o of preview.organizations)
          ctx.out(
            `${o.organization}\t${o.items}\t${o.decided}\t${o.wouldBeRemoved}\t${o.wouldBeDisabled}\t${o.wouldBeKept}\n`,
          );
      };
      const campaignId = () => {
        const id = str(options.campaign);
        if (!id || !/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError('--campaign <id> is required');
        return id;
      };
      if (action === 'close') {
        await campaignAction(sweep, ctx.actor, campaignId(), 'close', undefined);
        ctx.out('Closed: decisions and the default applied.\n');
        return;
      }
      if (action === 'export') {
        const id = campaignId();
        const dir = str(options.out) ?? '.';
        mkdirSync(dir, { recursive: true });
        const csv = await evidenceOf(sweep, id, ctx.actor, 'csv');
        const json = await evidenceOf(sweep, id, ctx.actor, 'json');
        writeFileSync(join(dir, 'evidence.csv'), csv.body);
        writeFileSync(join(dir, 'evidence.json'), json.body);
        ctx.out(
          `Wrote ${join(dir, 'evidence.csv')} (SHA-256 ${csv.sha256}) and ${join(dir, 'evidence.json')}.\n`,
        );
        return;
      }
      if (action !== 'preview' && action !== 'start')
        throw new UsageError('say preview, start, close or export');
      const cycle = str(options.cycle);
      if (action === 'preview' && cycle) {
        printPreview(await previewCycle(sweep, cycle, ctx.actor));
        return;
      }
      const names = (str(options.orgs) ?? '')
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const all = await listOrganizations(ctx.db);
      const organizationIds = names.map((n) => {
        const found = all.find((o) => o.name.toLowerCase() === n.toLowerCase());
        if (!found) throw new UsageError(`no organization named ${n}`);
        return found.id;
      });
      const defaultAction = str(options.default) ?? 'remove';
      if (defaultAction !== 'remove' && defaultAction !== 'keep' && defaultAction !== 'recommendation')
        throw new UsageError('--default is remove, keep or recommendation');
      const dueDays = str(options['due-days']);
      if (dueDays !== undefined && !/^\d{1,2}$/.test(dueDays))
        throw new UsageError('--due-days is a number of days');
      const today = sweep.at;
      const quarter = Math.floor(today.getUTCMonth() / 3) + 1;
      const result = await startCycle(sweep, ctx.actor, {
        name: str(options.name) ?? `${today.getUTCFullYear()} Q${quarter} vendor access review`,
        ...(organizationIds.length > 0 ? { organizationIds } : {}),
        ...(dueDays ? { dueInDays: Number(dueDays) } : {}),
        defaultAction,
        vendorConfirmation: options['no-vendor-confirmation'] !== true,
        previewOnly: action === 'preview',
      });
      printPreview(result.preview);
      if (result.cycleId) ctx.out(`Started cycle ${result.cycleId}.\n`);
    },
  },
  people: {
    summary:
      "Transfer a leaving BRM's responsibilities (organizations, approvals, review items, sponsorships)",
    usage:
      'people transfer <username> [--to "<organization>=<username>" …] [--infosec <organization> …] [--keep-kind] [--no-notify] [--dry-run]',
    args: ['action', 'username'],
    options: {
      to: {
        type: 'string',
        multiple: true,
        help: 'a successor for one organization (default: backup, other BRM, InfoSec)',
      },
      infosec: {
        type: 'string',
        multiple: true,
        help: 'an organization the Information Security team takes',
      },
      'keep-kind': { type: 'boolean', help: 'do not make the successors primary BRMs' },
      'no-notify': { type: 'boolean', help: 'do not tell the vendors who their new sponsor is' },
      'dry-run': { type: 'boolean', help: 'show what would move, change nothing' },
    },
    async run(ctx, [action, username], options) {
      if (action !== 'transfer') throw new UsageError('say transfer');
      const person = await requireEmployee(ctx.db, { username: username! });
      const all = await listOrganizations(ctx.db);
      const orgNamed = (name: string) => {
        const found = all.find((o) => o.name.toLowerCase() === name.trim().toLowerCase());
        if (!found) throw new UsageError(`no organization named ${name.trim()}`);
        return found.id;
      };
      const makePrimary = options['keep-kind'] !== true;
      const choices: SuccessorChoice[] = [];
      for (const pair of strs(options.to)) {
        const at = pair.lastIndexOf('=');
        if (at <= 0 || at === pair.length - 1) throw new UsageError('--to is "<organization>=<username>"');
        const successor = await findAccountByUsername(ctx.db, pair.slice(at + 1).trim());
        if (!successor) throw new UsageError(`no person named ${pair.slice(at + 1).trim()}`);
        choices.push({ organizationId: orgNamed(pair.slice(0, at)), successorId: successor.id, makePrimary });
      }
      for (const name of strs(options.infosec))
        choices.push({ organizationId: orgNamed(name), successorId: null, makePrimary });
      if (new Set(choices.map((c) => c.organizationId)).size !== choices.length)
        throw new UsageError('name each organization once');
      const dryRun = options['dry-run'] === true;
      const at = (ctx.clock ?? (await governanceClock(ctx.db, ctx.config))).now();
      const plan = dryRun
        ? await planTransfer(ctx.db, person.id, choices)
        : await ctx.db.transaction().execute((tx) =>
            applyTransfer(tx, {
              personId: person.id,
              choices,
              notifyVendors: options['no-notify'] !== true,
              actor: ctx.actor,
              at,
              clientAddress: ctx.actor.clientAddress,
              site: siteOf({ config: ctx.config }),
            }),
          );
      ctx.out('Organization\tSuccessor\tPending approvals\tOpen review items\tExtension requests\tVendors\n');
      for (const o of plan.organizations)
        ctx.out(
          `${o.organization}\t${o.successor}${o.makePrimary ? ' (primary)' : ''}\t${o.pendingApprovals}\t${o.openReviewItems}\t${o.extensionRequests}\t${o.vendors}\n`,
        );
      ctx.out(
        `${dryRun ? 'Would move' : 'Moved'}: ${plan.pendingApprovals} pending approvals, ${plan.openReviewItems} open review items, ` +
          `${plan.extensionRequests} extension requests and ${plan.delegations} delegations; ${plan.vendors} vendors get a new sponsor.\n`,
      );
      ctx.out(dryRun ? 'Dry run: nothing changed.\n' : `Responsibilities of ${plan.person} transferred.\n`);
    },
  },
  'audit-export': {
    summary: 'Export the audit trail for a time range as CSV or JSON lines (to standard output)',
    usage: 'audit-export --from 2026-01-01 --to 2026-02-01 [--format csv|jsonl]',
    args: [],
    options: {
      from: { type: 'string', help: 'first time included (ISO 8601)' },
      to: { type: 'string', help: 'end, excluded (ISO 8601)' },
      format: { type: 'string', help: 'csv (default) or jsonl' },
    },
    async run(ctx, _args, options) {
      const format = str(options.format) ?? 'csv';
      if (format !== 'csv' && format !== 'jsonl') throw new UsageError('--format is csv or jsonl');
      const filter = {
        from: parseTime(str(options.from), 'from') ?? undefined,
        to: parseTime(str(options.to), 'to') ?? undefined,
      };
      for await (const chunk of auditExport(ctx.db, filter, format)) ctx.out(chunk);
    },
  },
  'audit-purge': {
    summary: 'Delete audit events older than AUDIT_RETENTION_DAYS (dry run unless --apply)',
    usage: 'audit-purge [--apply]',
    args: [],
    options: { apply: { type: 'boolean', help: 'delete them (without it they are only counted)' } },
    async run(ctx, _args, options) {
      const days = ctx.config.AUDIT_RETENTION_DAYS;
      if (!days) {
        ctx.out('AUDIT_RETENTION_DAYS is not set: the audit trail is kept forever and nothing is purged.\n');
        return;
      }
      const cutoff = retentionCutoff(days);
      const apply = options.apply === true;
      const n = await purgeAudit(ctx.db, ctx.actor, cutoff, apply);
      ctx.out(
        apply
          ? `Purged ${n} audit event(s) older than ${cutoff.toISOString()}.\n`
          : `${n} audit event(s) are older than ${cutoff.toISOString()}. Run again with --apply to delete them.\n`,
      );
    },
  },
  'token-create': {
    summary:
      'Make a service token for automation, acting as an admin within its scopes; printed once (standard output)',
    usage:
      'token-create <name> --admin <username> --scope organizations:read [--scope …] [--expires 2026-12-31 | --days 90]',
    args: ['name'],
    options: {
      admin: { type: 'string', help: 'the active admin the token acts as' },
      scope: { type: 'string', multiple: true, help: 'a scope (repeatable); see docs/OPERATIONS.md' },
      expires: {
        type: 'string',
        help: 'when it stops working: a date (end of that day, UTC) or an ISO time',
      },
      days: { type: 'string', help: 'or: how many days from now (default 90, at most 366)' },
    },
    async run(ctx, [name], options) {
      const now = (ctx.clock ?? systemClock).now();
      const owner = await findAccountByUsername(ctx.db, need(options, 'admin'));
      if (!owner) throw new AppError('notFound', `No account with the username "${str(options.admin)}".`);
      const body = { name, scopes: strs(options.scope), expiresAt: tokenExpiry(options, now) };
      const created = await ctx.db
        .transaction()
        .execute((t) => createServiceToken(t, ctx.actor, owner, body, now));
      ctx.out(
        `Service token "${name}" (${created.id}) acts as ${owner.username} until ${created.expiresAt.toISOString()}.\n` +
          'It is shown only this once: store it in the automation’s secret store.\n' +
          `${created.token}\n`,
      );
    },
  },
  'token-list': {
    summary: 'List the service tokens (never the tokens themselves)',
    usage: 'token-list',
    args: [],
    options: {},
    async run(ctx) {
      for (const token of await listTokens(ctx.db, (ctx.clock ?? systemClock).now())) {
        ctx.out(
          `${token.id}\t${token.name}\t${token.status}\tas ${token.owner}\tby ${token.createdBy}\tscopes: ${token.scopes.join(' ')}\texpires ${token.expiresAt}\tlast used ${token.lastUsedAt ?? 'never'}\n`,
        );
      }
    },
  },
  'token-revoke': {
    summary: 'Revoke a service token by its id (token-list shows it): it stops working at once',
    usage: 'token-revoke <id>',
    args: ['id'],
    options: {},
    async run(ctx, [id]) {
      if (!/^[0-9a-f-]{36}$/i.test(id!)) throw new UsageError('give the token’s id, as token-list shows it');
      await ctx.db
        .transaction()
        .execute((t) => revokeToken(t, ctx.actor, id!, (ctx.clock ?? systemClock).now()));
      ctx.out(`Service token ${id} revoked.\n`);
    },
  },
};
