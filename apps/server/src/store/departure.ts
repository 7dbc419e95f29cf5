import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { hasKindSql } from './account-kinds';

// BRM departure's statements (GOVERNANCE.md §6.3): the leaving date, what a transfer moves
// (assignments, sponsorships, delegations; pending items are counted), the sweep's departures
// and inactive-BRM alerts.

/** Pending request items of an organization: Extend Access items or the others. */
export async function countPendingItems(
  db: Db | Tx,
  organizationId: string,
  extend: boolean,
): Promise<number> {
  const row = await db
    .selectFrom('request_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'pending')
    .where('operation', extend ? '=' : '<>', 'Extend')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The vendors whose grant of the organization `sponsorId` sponsors, by id. */
export async function sponsoredVendors(db: Db | Tx, organizationId: string, sponsorId: string) {
  return db
    .selectFrom('role_grants as g')
    .innerJoin('accounts as v', 'v.id', 'g.account_id')
    .select(['v.id', 'v.username', 'v.email', 'v.given_name', 'v.status'])
    .where('g.organization_id', '=', organizationId)
    .where('g.sponsor_id', '=', sponsorId)
    .orderBy('v.id')
    .execute();
}

/** Moves the organization's sponsorships from one sponsor to another (null: none); how many. */
export async function moveSponsorships(tx: Tx, organizationId: string, from: string, to: string | null) {
  const rows = await tx
    .updateTable('role_grants')
    .set({ sponsor_id: to })
    .where('organization_id', '=', organizationId)
    .where('sponsor_id', '=', from)
    .returning('account_id')
    .execute();
  return rows.length;
}

const openDelegations = (db: Db | Tx, personId: string) =>
  db
    .selectFrom('brm_delegations')
    .select('id')
    .where('ended_at', 'is', null)
    .where((eb) => eb.or([eb('delegator_id', '=', personId), eb('delegate_id', '=', personId)]));

/** The open delegations from or to the person. */
export async function countOpenDelegations(db: Db | Tx, personId: string): Promise<number> {
  return (await openDelegations(db, personId).execute()).length;
}

/** Ends the open delegations from or to the person; how many. */
export async function endOpenDelegations(tx: Tx, personId: string, at: Date, reason: string) {
  const rows = await tx
    .updateTable('brm_delegations')
    .set({ ended_at: at, end_reason: reason })
    .where('id', 'in', openDelegations(tx, personId))
    .returning('id')
    .execute();
  return rows.length;
}

/** A person as a transfer sees them (locked when asked). */
export async function personForTransfer(db: Db | Tx, id: string, lock: boolean) {
  let query = db
    .selectFrom('accounts')
    .select([
      'id',
      'username',
      'given_name',
      'family_name',
      'email',
      'status',
      'type',
      'leaving_on',
      'leaving_ends_role',
      'responsibilities_transferred_at',
    ])
    .where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The organizations the person is assigned to, by name, with the assignment's kind. */
export async function assignedOrganizations(db: Db | Tx, id: string) {
  return db
    .selectFrom('brm_assignments as b')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select(['o.id', 'o.name', 'b.kind'])
    .where('b.account_id', '=', id)
    .orderBy('o.name')
    .execute();
}

/** The default successor (§6.2 step 2): a backup BRM, another primary BRM, else null (InfoSec). */
export async function defaultSuccessor(db: Db | Tx, leavingId: string, organizationId: string) {
  const row = await db
    .selectFrom('brm_assignments as b')
    .innerJoin('accounts as a', 'a.id', 'b.account_id')
    .select(['a.id'])
    .where('b.organization_id', '=', organizationId)
    .where('a.id', '<>', leavingId)
    .where('a.status', '=', 'active')
    .where('a.leaving_on', 'is', null)
    .where(hasKindSql('a', 'employeeBrm'))
    .orderBy(sql`case b.kind when 'backup' then 0 else 1 end`)
    .orderBy('a.username')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** An employee BRM who may become a successor, or undefined. */
export async function employeeBrm(db: Db | Tx, id: string) {
  return db
    .selectFrom('accounts as a')
    .select(['a.id', 'a.username', 'a.given_name', 'a.family_name', 'a.email', 'a.status', 'a.leaving_on'])
    .where('a.id', '=', id)
    .where(hasKindSql('a', 'employeeBrm'))
    .executeTakeFirst();
}

/** The kind of the person's assignment to the organization, or undefined. */
export async function assignmentKindOf(db: Db | Tx, accountId: string, organizationId: string) {
  return (
    await db
      .selectFrom('brm_assignments')
      .select('kind')
      .where('account_id', '=', accountId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()
  )?.kind;
}

export async function markTransferred(tx: Tx, id: string, at: Date): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({ responsibilities_transferred_at: at })
    .where('id', '=', id)
    .execute();
}

/** Sets or clears the leaving date (a new date clears an earlier transfer's mark). */
export async function setLeavingOn(
  tx: Tx,
  id: string,
  o: { leavingOn: string | null; endsRole: boolean; dateChanged: boolean },
): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({
      leaving_on: o.leavingOn,
      leaving_ends_role: o.endsRole,
      ...(o.dateChanged ? { responsibilities_transferred_at: null } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** People leaving by `horizon` (a date) whose responsibilities were not transferred, by id. */
export async function leavingUntransferred(
  db: Db,
  horizon: string,
  after: { id: string } | null,
  limit: number,
) {
  let query = db
    .selectFrom('accounts')
    .select('id')
    .where('leaving_on', '<=', horizon)
    .where('responsibilities_transferred_at', 'is', null)
    .where('status', '<>', 'terminated');
  if (after) query = query.where('id', '>', after.id);
  return query.orderBy('id').limit(limit).execute();
}

/** Leavers whose date has come and whose BRM role ends with it, the transfer done, by id. */
export async function leaversWithBrmRole(db: Db, today: string, after: { id: string } | null, limit: number) {
  let query = db
    .selectFrom('accounts')
    .select('id')
    .where('leaving_on', '<=', today)
    .where('leaving_ends_role', '=', true)
    .where('is_employee_brm', '=', true)
    .where('responsibilities_transferred_at', 'is not', null)
    .where('status', '<>', 'terminated');
  if (after) query = query.where('id', '>', after.id);
  return query.orderBy('id').limit(limit).execute();
}

/** Ends the BRM role (answers whether it was held). */
export async function endBrmRole(tx: Tx, id: string): Promise<boolean> {
  const res = await tx
    .updateTable('accounts')
    .set({ is_employee_brm: false })
    .where('id', '=', id)
    .where('is_employee_brm', '=', true)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

const brmSince = sql<Date>`greatest(a.last_sign_in_at, a.active_since, a.created_at)`;

/** Active employee BRMs idle since `cutoff` with a pending item in an organization they manage. */
export async function idleBrmsWithPendingWork(
  db: Db,
  cutoff: Date,
  after: { id: string } | null,
  limit: number,
) {
  let query = db
    .selectFrom('accounts as a')
    .select('a.id')
    .where('a.status', '=', 'active')
    .where(hasKindSql('a', 'employeeBrm'))
    .where(brmSince, '<=', cutoff)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('brm_assignments as b')
          .innerJoin('request_items as i', 'i.organization_id', 'b.organization_id')
          .select('b.account_id')
          .whereRef('b.account_id', '=', 'a.id')
          .where('i.status', '=', 'pending'),
      ),
    );
  if (after) query = query.where('a.id', '>', after.id);
  return query.orderBy('a.id').limit(limit).execute();
}

/** A BRM with the start of their idle stretch and their pending items' count. */
export async function brmPendingWork(db: Db | Tx, id: string) {
  const brm = await db
    .selectFrom('accounts as a')
    .select(['a.id', 'a.username', 'a.given_name', 'a.family_name', brmSince.as('since')])
    .where('a.id', '=', id)
    .executeTakeFirstOrThrow();
  const row = await db
    .selectFrom('request_items as i')
    .innerJoin('brm_assignments as b', 'b.organization_id', 'i.organization_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('b.account_id', '=', id)
    .where('i.status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { ...brm, since: new Date(brm.since), pending: Number(row.n) };
}

/** Which of the organizations the account manages as an active employee BRM. */
export async function organizationsManagedBy(
  db: Db | Tx,
  accountId: string,
  organizationIds: readonly string[],
) {
  if (organizationIds.length === 0) return [];
  return db
    .selectFrom('brm_assignments as b')
    .innerJoin('accounts as a', 'a.id', 'b.account_id')
    .select('b.organization_id')
    .where('b.account_id', '=', accountId)
    .where('b.organization_id', 'in', organizationIds)
    .where('a.status', '=', 'active')
    .where(hasKindSql('a', 'employeeBrm'))
    .execute();
}

/** Usernames by account id. */
export async function usernamesOf(db: Db | Tx, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db.selectFrom('accounts').select(['id', 'username']).where('id', 'in', ids).execute();
  return new Map(rows.map((a) => [a.id, a.username]));
}
