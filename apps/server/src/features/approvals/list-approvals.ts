import {
  answeredPage,
  governanceSettings,
  type GovernanceSettings,
  pageRequest,
  roleName,
  type ApprovalSortKey,
  type PendingApproval,
  type PendingApprovalsPage,
} from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import type { Account } from '../../platform/db-schema';
import { daysLeft, localDate } from '../../platform/local-time';
import { termsOf } from '../../identity/governance/grant-terms';
import { readPolicies } from '../../store/governance';
import { grantEndsOf } from '../../store/grants';
import { loadDecider, type Actor } from '../../policies/actor';
import * as request from '../../policies/request';
import { routingOf } from '../../store/approval-routing';
import { emergenciesOfRequests, reportsOfRequests } from '../../store/emergencies';
import {
  countDecidableItems,
  countDecidableItemsMatching,
  listDecidableItems,
  pageDecidableItems,
  type DecidableItemRow,
} from '../../store/requests';

/** Spec section 9: the approvals page size, when the query names none. */
export const APPROVALS_PAGE_SIZE = 5;

type History = PendingApproval['history'];

/** One approvals-page row for a pending item, with the actor's right to decide it. */
function toPendingApproval(
  row: DecidableItemRow,
  actor: Actor,
  o: {
    now: Date;
    timeZone: string;
    history: History;
    policies: Policies;
    currentEnd: Date | null;
    emergency: PendingApproval['emergency'];
    departure: PendingApproval['departure'];
  },
): PendingApproval {
  // A registration describes the person itself; access requests are about an existing account.
  const isNewAccount = row.type === 'New Account';
  const email = isNewAccount ? row.email : (row.beneficiaryEmail ?? row.email);
  const item = {
    organizationId: row.organizationId,
    beneficiaryId: row.beneficiaryId,
    forwarded: row.forwardedAt !== null,
    createdAt: new Date(row.itemCreatedAt),
  };
  const dueAt = new Date(row.expiresAt);
  const onBehalfOf = request.onBehalfOf(actor, item);
  return {
    requestId: row.requestId,
    workItemId: row.itemId,
    workItemName: `${row.type} for ${email}`,
    type: row.type,
    firstname: isNewAccount ? row.first_name : (row.beneficiaryGivenName ?? row.first_name),
    lastname: isNewAccount ? row.last_name : (row.beneficiaryFamilyName ?? row.last_name),
    email,
    name: row.beneficiaryUsername ?? '',
    org: row.orgName,
    created: new Date(row.created_at).toISOString(),
    // The activation code is claimed once the account is active; a registration has no account yet.
    praclaimed: String(row.beneficiaryStatus === 'active'),
    jobTitle: isNewAccount ? row.job_title : (row.beneficiaryJobTitle ?? row.job_title),
    manager: isNewAccount ? row.manager : (row.beneficiaryManager ?? row.manager),
    description: `${row.type} request for ${roleName(row.orgName)}`,
    comment: row.comment,
    commentAuthor: row.requesterUsername ?? row.email,
    canDecide: request.can(actor, 'decide', item),
    dueAt: dueAt.toISOString(),
    dueInDays: daysLeft(o.now, dueAt, o.timeZone),
    // It reaches the caller because it was forwarded: a backup BRM, or InfoSec (an admin not its BRM).
    forwarded:
      item.forwarded &&
      onBehalfOf === null &&
      (actor.backupOrganizationIds.has(row.organizationId) ||
        (actor.isAdmin && !actor.managedOrganizationIds.has(row.organizationId))),
    onBehalfOf,
    history: o.history,
    currentEndsOn: o.currentEnd === null ? null : localDate(o.currentEnd, o.timeZone),
    requestedUntilOn:
      row.requestedUntil === null ? null : localDate(new Date(row.requestedUntil), o.timeZone),
    accessEnds: row.operation === 'Add' || row.operation === 'Extend' ? accessEndsOf(row, o) : null,
    // Present only on the rows they describe (GOVERNANCE.md §10).
    ...(o.emergency && { emergency: o.emergency }),
    ...(o.departure && { departure: o.departure }),
  };
}

type Policies = Map<string, Pick<GovernanceSettings, 'accessDays' | 'maxAccessDays'>>;

/**
 * What the Approve dialog's "Access ends on" offers for an item that grants access: the
 * organization's terms now, the default being the date asked for (within the cap) when there is one.
 */
function accessEndsOf(
  row: DecidableItemRow,
  o: { now: Date; timeZone: string; policies: Policies },
): NonNullable<PendingApproval['accessEnds']> {
  const settings = o.policies.get(row.riskTier) ?? o.policies.get('standard')!;
  const terms = termsOf(settings, row.contractEndsOn, o.now, o.timeZone);
  const asked = row.requestedUntil === null ? null : localDate(new Date(row.requestedUntil), o.timeZone);
  const defaultDate = asked !== null && asked <= terms.maxDate ? asked : terms.defaultDate;
  return { defaultDate, maxDate: terms.maxDate, accessDays: terms.accessDays };
}

/** The rows with their routing history (one query for all of them). */
async function withRouting(
  ctx: AppContext,
  actor: Actor,
  now: Date,
  rows: DecidableItemRow[],
): Promise<PendingApproval[]> {
  const history = new Map<string, History>();
  for (const h of await routingOf(
    ctx.db,
    rows.map((r) => r.itemId),
  )) {
    const list = history.get(h.item_id) ?? [];
    list.push({ at: new Date(h.occurred_at).toISOString(), event: h.event, to: h.recipients });
    history.set(h.item_id, list);
  }
  const timeZone = ctx.config.PORTAL_TIME_ZONE;
  const policies: Policies = new Map(
    rows.length === 0
      ? []
      : (await readPolicies(ctx.db)).map((p) => [p.tier, governanceSettings.parse(p.settings)]),
  );
  // An Extend Access item shows its grant's current end (read apart, for those rows only, so the
  // list's own statement stays as the list plans test has it).
  const extending = rows.filter((r) => r.operation === 'Extend' && r.beneficiaryId !== null);
  const ends = new Map(
    (
      await grantEndsOf(
        ctx.db,
        extending.map((r) => ({ account_id: r.beneficiaryId!, organization_id: r.organizationId })),
      )
    ).map((g) => [`${g.account_id}/${g.organization_id}`, new Date(g.expires_at)]),
  );
  // Emergency follow-ups and reported departures show what they are about (GOVERNANCE.md §10).
  const emergencies = new Map(
    (
      await emergenciesOfRequests(
        ctx.db,
        rows.filter((r) => r.type === 'Emergency Access').map((r) => r.requestId),
      )
    ).map((e) => [
      e.request_id,
      {
        ticket: e.ticket,
        reason: e.reason,
        hours: e.hours,
        grantedBy:
          `${e.grantedByGivenName ?? ''} ${e.grantedByFamilyName ?? ''}`.trim() || (e.grantedBy ?? ''),
        endsAt: new Date(e.ends_at).toISOString(),
        endedAt: e.ended_at === null ? null : new Date(e.ended_at).toISOString(),
      },
    ]),
  );
  const departures = new Map(
    (
      await reportsOfRequests(
        ctx.db,
        rows.filter((r) => r.type === 'Departure Reported').map((r) => r.requestId),
      )
    ).map((d) => [
      d.request_id,
      {
        reportedBy:
          `${d.reporterGivenName ?? ''} ${d.reporterFamilyName ?? ''}`.trim() || (d.reporterUsername ?? ''),
        leftOn: d.left_on,
        note: d.note,
        suspended: d.suspended,
        forwarded: d.forwarded_at !== null,
      },
    ]),
  );
  return rows.map((row) =>
    toPendingApproval(row, actor, {
      now,
      timeZone,
      policies,
      history: history.get(row.itemId) ?? [],
      currentEnd: ends.get(`${row.beneficiaryId}/${row.organizationId}`) ?? null,
      emergency: emergencies.get(row.requestId) ?? null,
      departure: departures.get(row.requestId) ?? null,
    }),
  );
}

/** The pending items the account may decide, newest first. */
export async function listPendingApprovals(ctx: AppContext, account: Account): Promise<PendingApproval[]> {
  const now = ctx.clock.now();
  const actor = await loadDecider(ctx.db, account, now);
  return withRouting(ctx, actor, now, await listDecidableItems(ctx.db, request.scopeOf(actor, 'i')));
}

/** One page of the pending items the account may decide, filtered and sorted by the database. */
export async function pagePendingApprovals(
  ctx: AppContext,
  account: Account,
  query: {
    page?: number;
    size?: number;
    filter?: string;
    sort?: ApprovalSortKey;
    direction?: 'asc' | 'desc';
  },
): Promise<PendingApprovalsPage> {
  const asked = pageRequest(query, APPROVALS_PAGE_SIZE);
  const now = ctx.clock.now();
  const actor = await loadDecider(ctx.db, account, now);
  const scope = request.scopeOf(actor, 'i');
  const { total, matching } = await countDecidableItemsMatching(ctx.db, scope, asked.filter);
  const page = answeredPage(asked.page, asked.size, matching);
  const rows =
    matching === 0
      ? []
      : await pageDecidableItems(ctx.db, scope, {
          filter: asked.filter,
          sort: asked.sort,
          direction: asked.direction,
          offset: (page - 1) * asked.size,
          limit: asked.size,
        });
  return { items: await withRouting(ctx, actor, now, rows), total, matching, page, size: asked.size };
}

/** How many pending items the account may decide (the approvals badge). */
export async function countPendingApprovals(ctx: AppContext, account: Account): Promise<number> {
  const actor = await loadDecider(ctx.db, account, ctx.clock.now());
  return countDecidableItems(ctx.db, request.scopeOf(actor, 'i'));
}
