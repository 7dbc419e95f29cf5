import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';

// The owner of `emergency_grants` (an admin's time-boxed grant, GOVERNANCE.md §10.1) and
// `departure_reports` (a vendor's report that a colleague left, §10.2). Their follow-up items in
// Approvals are requests (store/requests.ts); their grants are role_grants rows (store/grants.ts).

/** Records an emergency grant (its role_grants row is made by store/grants.ts `grantRole`). */
export async function insertEmergencyGrant(
  tx: Tx,
  e: {
    accountId: string;
    organizationId: string;
    requestId: string;
    ticket: string;
    reason: string;
    hours: number;
    grantedBy: string;
    at: Date;
    endsAt: Date;
  },
): Promise<string> {
  const row = await tx
    .insertInto('emergency_grants')
    .values({
      account_id: e.accountId,
      organization_id: e.organizationId,
      request_id: e.requestId,
      ticket: e.ticket,
      reason: e.reason,
      hours: e.hours,
      granted_by: e.grantedBy,
      granted_at: e.at,
      ends_at: e.endsAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Current emergency grants whose end has come by `by`, after `after` by id (the sweep's batches). */
export async function emergencyGrantsDue(db: Db, by: Date, after: { id: string } | null, limit: number) {
  let query = db
    .selectFrom('emergency_grants')
    .select('id')
    .where('ended_at', 'is', null)
    .where('ends_at', '<=', by);
  if (after) query = query.where('id', '>', after.id);
  return query.orderBy('id').limit(limit).execute();
}

/** Counts current emergency grants ending by `until` (for `governance status`). */
export async function countEmergencyGrantsDue(db: Db, until: Date): Promise<number> {
  const row = await db
    .selectFrom('emergency_grants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ended_at', 'is', null)
    .where('ends_at', '<=', until)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A current emergency grant with what its mails and audit events name, locked for the rest of the
 * transaction (the sweep and "Remove now" take turns; the second finds it ended: undefined).
 */
export async function currentEmergencyForUpdate(tx: Tx, id: string) {
  return tx
    .selectFrom('emergency_grants as e')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .innerJoin('organizations as o', 'o.id', 'e.organization_id')
    .select([
      'e.id',
      'e.account_id',
      'e.organization_id',
      'e.request_id',
      'e.ticket',
      'e.hours',
      'e.ends_at',
      'a.username',
      'a.email',
      'a.given_name',
      'a.family_name',
      'o.name as organization',
    ])
    .where('e.id', '=', id)
    .where('e.ended_at', 'is', null)
    .forUpdate(['e'])
    .executeTakeFirst();
}

/** The current emergency grant a follow-up request is about, if any. */
export async function emergencyOfRequest(db: Db | Tx, requestId: string) {
  return db
    .selectFrom('emergency_grants')
    .select(['id', 'ended_at', 'account_id', 'organization_id'])
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

/** Marks the emergency grant ended (only once); true when this call did. */
export async function markEmergencyEnded(
  tx: Tx,
  e: { id: string; at: Date; reason: 'expired' | 'removed' | 'replaced'; endedBy: string | null },
): Promise<boolean> {
  const rows = await tx
    .updateTable('emergency_grants')
    .set({ ended_at: e.at, end_reason: e.reason, ended_by: e.endedBy })
    .where('id', '=', e.id)
    .where('ended_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/**
 * The account's current emergency grant of the organization (an ordinary grant just replaced its
 * row), marked ended as `replaced`; answers its id, or undefined when there was none.
 */
export async function endReplacedEmergency(
  tx: Tx,
  e: { accountId: string; organizationId: string; at: Date; endedBy: string },
) {
  return tx
    .updateTable('emergency_grants')
    .set({ ended_at: e.at, end_reason: 'replaced', ended_by: e.endedBy })
    .where('account_id', '=', e.accountId)
    .where('organization_id', '=', e.organizationId)
    .where('ended_at', 'is', null)
    .returning(['id', 'ticket'])
    .executeTakeFirst();
}

/** Emergency follow-up items still pending (not acknowledged) and granted by `grantedBy` or earlier. */
export async function unacknowledgedEmergencies(
  db: Db,
  grantedBy: Date,
  after: { id: string } | null,
  limit: number,
): Promise<{ id: string; granted_at: Date; itemId: string; expires_at: Date }[]> {
  let query = db
    .selectFrom('emergency_grants as e')
    .innerJoin('request_items as i', 'i.request_id', 'e.request_id')
    .select(['e.id', 'e.granted_at', 'i.id as itemId', 'i.expires_at'])
    .where('i.status', '=', 'pending')
    .where('e.granted_at', '<=', grantedBy);
  if (after) query = query.where('e.id', '>', after.id);
  return query.orderBy('e.id').limit(limit).execute();
}

/** An emergency follow-up item with what its reminder names, locked. */
export async function emergencyItemForUpdate(tx: Tx, itemId: string) {
  return tx
    .selectFrom('request_items as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .innerJoin('emergency_grants as e', 'e.request_id', 'i.request_id')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .select([
      'i.id',
      'i.organization_id',
      'i.created_at',
      'i.status',
      'e.ticket',
      'a.id as accountId',
      'a.username',
      'a.given_name',
      'a.family_name',
      'o.name as organization',
    ])
    .where('i.id', '=', itemId)
    .forUpdate(['i'])
    .executeTakeFirst();
}

/** What the Approvals rows of emergency follow-ups show, by request. */
export async function emergenciesOfRequests(db: Db | Tx, requestIds: readonly string[]) {
  if (requestIds.length === 0) return [];
  return db
    .selectFrom('emergency_grants as e')
    .leftJoin('accounts as g', 'g.id', 'e.granted_by')
    .select([
      'e.request_id',
      'e.ticket',
      'e.reason',
      'e.hours',
      'e.ends_at',
      'e.ended_at',
      'g.username as grantedBy',
      'g.given_name as grantedByGivenName',
      'g.family_name as grantedByFamilyName',
    ])
    .where('e.request_id', 'in', requestIds)
    .execute();
}

// --- departure reports ---

/** Records a departure report (its request, Departure Reported, is made by store/requests.ts). */
export async function insertDepartureReport(
  tx: Tx,
  r: {
    targetId: string;
    reporterId: string;
    organizationId: string;
    requestId: string;
    leftOn: string;
    note: string;
    suspended: boolean;
    at: Date;
    dueAt: Date;
  },
): Promise<string> {
  const row = await tx
    .insertInto('departure_reports')
    .values({
      target_id: r.targetId,
      reporter_id: r.reporterId,
      organization_id: r.organizationId,
      request_id: r.requestId,
      left_on: r.leftOn,
      note: r.note,
      suspended: r.suspended,
      created_at: r.at,
      due_at: r.dueAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Whether a report about the account in the organization is still open. */
export async function openReportExists(db: Db | Tx, targetId: string, organizationId: string) {
  const row = await db
    .selectFrom('departure_reports')
    .select('id')
    .where('target_id', '=', targetId)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'reported')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The vendor of the organization named by an email or a username (either, case-insensitively),
 * among the accounts holding the organization's role, in one statement whatever the name is: an
 * unknown name and another organization's vendor read alike.
 */
export async function colleagueInOrganization(db: Db | Tx, organizationId: string, name: string) {
  const folded = name.toLowerCase();
  return db
    .selectFrom('accounts as a')
    .innerJoin('role_grants as g', 'g.account_id', 'a.id')
    .select(['a.id', 'a.username', 'a.email', 'a.given_name', 'a.family_name', 'a.status'])
    .where('g.organization_id', '=', organizationId)
    .where('a.type', '=', 'vendor')
    .where((eb) =>
      eb.or([eb(sql<string>`lower(a.username)`, '=', folded), eb(sql<string>`lower(a.email)`, '=', folded)]),
    )
    .executeTakeFirst();
}

/** The report behind a Departure Reported request, locked. */
export async function reportOfRequestForUpdate(tx: Tx, requestId: string) {
  return tx
    .selectFrom('departure_reports')
    .selectAll()
    .where('request_id', '=', requestId)
    .forUpdate()
    .executeTakeFirst();
}

/** Records the decision of a report still `reported`; true when this call did. */
export async function decideReport(
  tx: Tx,
  d: { id: string; status: 'confirmed' | 'dismissed'; by: string; at: Date; reason: string },
): Promise<boolean> {
  const rows = await tx
    .updateTable('departure_reports')
    .set({ status: d.status, decided_by: d.by, decided_at: d.at, decision_reason: d.reason })
    .where('id', '=', d.id)
    .where('status', '=', 'reported')
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Whether another report still open suspends the account (a dismissal re-enables it only when none does). */
export async function otherSuspendingReport(tx: Tx, targetId: string, exceptId: string) {
  const row = await tx
    .selectFrom('departure_reports')
    .select('id')
    .where('target_id', '=', targetId)
    .where('id', '<>', exceptId)
    .where('status', '=', 'reported')
    .where('suspended', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

/** Reports past their deadline, not decided and not forwarded yet (the sweep's batches). */
export async function reportsPastDue(db: Db, by: Date, after: { id: string } | null, limit: number) {
  let query = db
    .selectFrom('departure_reports')
    .select('id')
    .where('status', '=', 'reported')
    .where('due_at', '<=', by)
    .where('forwarded_at', 'is', null);
  if (after) query = query.where('id', '>', after.id);
  return query.orderBy('id').limit(limit).execute();
}

/** A report still open and not forwarded, with what its mail names, locked. */
export async function reportToForward(tx: Tx, id: string) {
  return tx
    .selectFrom('departure_reports as d')
    .innerJoin('accounts as t', 't.id', 'd.target_id')
    .innerJoin('organizations as o', 'o.id', 'd.organization_id')
    .innerJoin('request_items as i', 'i.request_id', 'd.request_id')
    .leftJoin('accounts as r', 'r.id', 'd.reporter_id')
    .select([
      'r.username as reporterUsername',
      'r.given_name as reporterGivenName',
      'r.family_name as reporterFamilyName',
      'd.id',
      'd.request_id',
      'd.organization_id',
      'd.target_id',
      'd.due_at',
      'd.left_on',
      'i.id as itemId',
      't.username',
      't.given_name',
      't.family_name',
      'o.name as organization',
    ])
    .where('d.id', '=', id)
    .where('d.status', '=', 'reported')
    .where('d.forwarded_at', 'is', null)
    .forUpdate(['d'])
    .executeTakeFirst();
}

export async function markReportForwarded(tx: Tx, id: string, at: Date): Promise<void> {
  await tx.updateTable('departure_reports').set({ forwarded_at: at }).where('id', '=', id).execute();
}

/** What the Approvals rows of departure reports show, by request. */
export async function reportsOfRequests(db: Db | Tx, requestIds: readonly string[]) {
  if (requestIds.length === 0) return [];
  return db
    .selectFrom('departure_reports as d')
    .leftJoin('accounts as r', 'r.id', 'd.reporter_id')
    .select([
      'd.request_id',
      'd.left_on',
      'd.note',
      'd.suspended',
      'd.forwarded_at',
      'r.username as reporterUsername',
      'r.given_name as reporterGivenName',
      'r.family_name as reporterFamilyName',
    ])
    .where('d.request_id', 'in', requestIds)
    .execute();
}
