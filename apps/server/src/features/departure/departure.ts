import type { AssignSponsorBody, LeavingBody, MySponsors, TransferPlanResponse } from '@pra/contracts';
import {
  departureMessages,
  pageRequest,
  sponsorshipCsvColumns,
  type Page,
  type SponsorshipGrant,
} from '@pra/contracts';
import { cellsOf, type CsvReport } from '../../http/csv-report';
import type { Db } from '../../platform/db';
import { answerPage } from '../../http/paging';
import { localDate } from '../../platform/local-time';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import { recordAudit, recordAudits } from '../../identity/audit';
import { siteOf } from '../../identity/governance/access-expiry';
import { applyTransfer, planTransfer, type SuccessorChoice } from '../../identity/governance/transfer';
import * as store from '../../store/departure';
import * as dormancy from '../../store/dormancy';

const who = (a: Account) => ({ id: a.id, username: a.username });

/** PUT /api/admin/people/:id/leaving: audited as `person.leaving`. */
export async function setLeaving(
  ctx: AppContext,
  actor: Account,
  o: { personId: string; body: LeavingBody; clientAddress: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const person = await store.personForTransfer(tx, o.personId, true);
    if (!person || person.type !== 'employee' || person.status === 'terminated') {
      throw new AppError('notFound', 'Person not found.');
    }
    // A new leaving date is a new departure: its work is transferred again.
    await store.setLeavingOn(tx, person.id, {
      leavingOn: o.body.leavingOn,
      endsRole: o.body.endsRole ?? true,
      dateChanged: o.body.leavingOn !== person.leaving_on,
    });
    await recordAudit(tx, {
      action: 'person.leaving',
      outcome: 'success',
      actor: who(actor),
      target: { id: person.id, username: person.username },
      clientAddress: o.clientAddress,
      details: {
        leavingOn: o.body.leavingOn,
        previous: person.leaving_on,
        endsRole: o.body.endsRole ?? true,
      },
    });
  });
}

/** POST /api/admin/people/:id/transfer: the dry run, or the transfer in one transaction. */
export async function transfer(
  ctx: AppContext,
  actor: Account,
  o: {
    personId: string;
    dryRun: boolean;
    successors: SuccessorChoice[];
    notifyVendors: boolean;
    clientAddress: string;
  },
): Promise<TransferPlanResponse> {
  if (o.dryRun) {
    const { target: _target, ...plan } = await planTransfer(ctx.db, o.personId, o.successors);
    return { ...plan, dryRun: true };
  }
  const done = await ctx.db.transaction().execute((tx) =>
    applyTransfer(tx, {
      personId: o.personId,
      choices: o.successors,
      notifyVendors: o.notifyVendors,
      actor: who(actor),
      at: ctx.clock.now(),
      clientAddress: o.clientAddress,
      site: siteOf({ config: ctx.config }),
    }),
  );
  return { ...done, dryRun: false };
}

/** POST /api/admin/sponsors: the sponsor must manage every organization chosen. */
export async function assignSponsors(
  ctx: AppContext,
  actor: Account,
  o: { body: AssignSponsorBody; clientAddress: string },
): Promise<number> {
  return ctx.db.transaction().execute(async (tx) => {
    const organizations = [...new Set(o.body.grants.map((g) => g.organizationId))];
    const managed = await store.organizationsManagedBy(tx, o.body.sponsorId, organizations);
    if (managed.length !== organizations.length)
      throw new AppError('badRequest', departureMessages.sponsorNotBrm);
    const changed = await dormancy.assignSponsor(tx, o.body.grants, o.body.sponsorId);
    const usernames = await store.usernamesOf(
      tx,
      changed.map((c) => c.account_id),
    );
    await recordAudits(
      tx,
      changed.map((c) => ({
        action: 'sponsor.change',
        outcome: 'success' as const,
        actor: who(actor),
        target: { id: c.account_id, username: usernames.get(c.account_id) ?? '' },
        organizationId: c.organization_id,
        clientAddress: o.clientAddress,
        details: { from: c.before, to: o.body.sponsorId, cause: 'assigned' },
      })),
    );
    return changed.length;
  });
}

/** GET /api/profile/sponsors: "{Org}: {BRM name}, {email}" as data. */
export async function mySponsors(ctx: AppContext, account: Account): Promise<MySponsors> {
  return {
    sponsors: (await dormancy.sponsorsOf(ctx.db, account.id)).map((s) => ({
      organization: s.organization,
      name: s.sponsor_id ? `${s.given_name} ${s.family_name}`.trim() : null,
      email: s.sponsor_id ? s.email : null,
    })),
  };
}

// Administration → Reports → Sponsorship (GOVERNANCE.md §6.2): one page, and its CSV.

type SponsorshipQuery = {
  page?: number;
  size?: number;
  filter?: string;
  sort?: dormancy.SponsorshipSortKey;
  direction?: 'asc' | 'desc';
};

function sponsorshipGrant(
  r: Awaited<ReturnType<typeof dormancy.grantsWithoutSponsor>>[number],
): SponsorshipGrant {
  return {
    accountId: r.account_id,
    organizationId: r.organization_id,
    username: r.username,
    name: `${r.given_name} ${r.family_name}`.trim(),
    organization: r.organization,
    expiresAt: new Date(r.expires_at).toISOString(),
    formerSponsor: r.sponsor_username,
  };
}

/** GET /api/admin/sponsorship: one page. */
const PAGE_SIZE = 25;

export async function sponsorshipPage(db: Db, query: SponsorshipQuery): Promise<Page<SponsorshipGrant>> {
  const asked = pageRequest<dormancy.SponsorshipSortKey>(query, PAGE_SIZE);
  return answerPage(
    asked,
    await dormancy.countGrantsWithoutSponsor(db, asked.filter),
    (offset, limit) =>
      dormancy.grantsWithoutSponsor(db, {
        filter: asked.filter,
        sort: asked.sort ?? 'organization',
        direction: asked.direction,
        offset,
        limit,
      }),
    sponsorshipGrant,
  );
}

/** GET /api/admin/reports/sponsorship.csv (offset batches: the report is short by nature). */
export function sponsorshipCsv(
  db: Db,
  query: { filter?: string },
  time: { now: Date; zone: string },
): CsvReport {
  const filter = (query.filter ?? '').trim();
  async function* rows() {
    for (let offset = 0; ; offset += 1000) {
      const batch = await dormancy.grantsWithoutSponsor(db, {
        filter,
        sort: 'organization',
        direction: 'asc',
        offset,
        limit: 1000,
      });
      yield* batch;
      if (batch.length < 1000) return;
    }
  }
  return {
    report: 'sponsorship',
    filters: { filter },
    fileName: `sponsorship-${localDate(time.now, time.zone)}.csv`,
    header: sponsorshipCsvColumns,
    rows: cellsOf(rows(), (raw) => {
      const g = sponsorshipGrant(raw);
      return [
        g.organization,
        g.name,
        g.username,
        localDate(new Date(g.expiresAt), time.zone),
        g.formerSponsor ?? 'No sponsor',
      ];
    }),
  };
}
