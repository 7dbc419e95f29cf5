import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { RoutingEvent } from '../platform/db-schema';
import { hasKindSql } from './account-kinds';
import { inChunks } from './chunks';

// The owner of approval routing's rows: `brm_delegations` (Away and Backup), `request_routing`
// (what happened to a request item: sent, reminded, forwarded, expired), the request items'
// deadlines and forwards, and routing's milestones in `governance_notices`. Every instant comes
// from the caller (the clock), never from SQL `now()`.

export type Tier = 'standard' | 'high';
export type AssignmentKind = 'primary' | 'backup';

/** The risk tier of each organization named. */
export async function tiersOf(db: Db | Tx, organizationIds: readonly string[]): Promise<Map<string, Tier>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('organizations')
    .select(['id', 'risk_tier'])
    .where('id', 'in', [...organizationIds])
    .execute();
  return new Map(rows.map((r) => [r.id, r.risk_tier]));
}

// --- assignments (primary and backup BRMs) ---

/** The account's BRM assignments with their kind. */
export async function assignmentsOf(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('brm_assignments')
    .select(['organization_id', 'kind'])
    .where('account_id', '=', accountId)
    .execute();
}

/** Every BRM assignment, with its organization's name and its kind. */
export async function allAssignments(db: Db | Tx) {
  return db
    .selectFrom('brm_assignments as b')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select(['b.account_id', 'b.organization_id', 'o.name', 'b.kind'])
    .orderBy('o.name')
    .execute();
}

/**
 * Makes the employee a BRM of the organization of that kind (assigning it if it was not); answers
 * the kind it had before (null: it was not assigned), read under the row's lock.
 */
export async function setAssignmentKind(
  tx: Tx,
  a: { accountId: string; organizationId: string; kind: AssignmentKind },
): Promise<AssignmentKind | null> {
  const before = await tx
    .selectFrom('brm_assignments')
    .select('kind')
    .where('account_id', '=', a.accountId)
    .where('organization_id', '=', a.organizationId)
    .forUpdate()
    .executeTakeFirst();
  await tx
    .insertInto('brm_assignments')
    .values({ account_id: a.accountId, organization_id: a.organizationId, kind: a.kind })
    .onConflict((oc) => oc.columns(['account_id', 'organization_id']).doUpdateSet({ kind: a.kind }))
    .execute();
  return before?.kind ?? null;
}

/** The active BRMs of the organization of one kind: id, name and email. */
export async function brmsOf(db: Db | Tx, organizationId: string, kind: AssignmentKind) {
  return db
    .selectFrom('accounts as a')
    .innerJoin('brm_assignments as b', 'b.account_id', 'a.id')
    .select(['a.id', 'a.email', 'a.given_name', 'a.family_name', 'a.username'])
    .where('b.organization_id', '=', organizationId)
    .where('b.kind', '=', kind)
    .where('a.status', '=', 'active')
    .where(hasKindSql('a', 'employeeBrm'))
    .orderBy('a.username')
    .execute();
}

/** Active organizations without an active primary BRM: nobody there to decide their requests. */
export async function organizationsWithoutPrimary(db: Db | Tx) {
  return db
    .selectFrom('organizations as o')
    .select(['o.id', 'o.name'])
    .where('o.is_active', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('brm_assignments as b')
            .innerJoin('accounts as a', 'a.id', 'b.account_id')
            .select(sql`1`.as('one'))
            .whereRef('b.organization_id', '=', 'o.id')
            .where('b.kind', '=', 'primary')
            .where('a.status', '=', 'active')
            .where(hasKindSql('a', 'employeeBrm')),
        ),
      ),
    )
    .orderBy('o.name')
    .execute();
}

/** The active employee BRMs sharing at least one organization with the account (Away and Backup's choices). */
export async function brmsSharingOrganizations(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('accounts as a')
    .select(['a.id', 'a.username', 'a.given_name', 'a.family_name'])
    .where('a.id', '!=', accountId)
    .where('a.status', '=', 'active')
    .where(hasKindSql('a', 'employeeBrm'))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('brm_assignments as mine')
          .innerJoin('brm_assignments as theirs', 'theirs.organization_id', 'mine.organization_id')
          .select(sql`1`.as('one'))
          .where('mine.account_id', '=', accountId)
          .whereRef('theirs.account_id', '=', 'a.id'),
      ),
    )
    .orderBy('a.family_name')
    .orderBy('a.given_name')
    .execute();
}

// --- delegations ---

const delegationColumns = [
  'd.id',
  'd.delegator_id',
  'd.delegate_id',
  'd.starts_at',
  'd.ends_at',
  'd.reason',
  'd.move_pending',
] as const;

/** The account's delegation not yet ended (scheduled or active), with the delegate's names. */
export async function openDelegationOf(db: Db | Tx, delegatorId: string, now: Date) {
  return db
    .selectFrom('brm_delegations as d')
    .leftJoin('accounts as g', 'g.id', 'd.delegate_id')
    .select([...delegationColumns, 'g.given_name', 'g.family_name', 'g.username'])
    .where('d.delegator_id', '=', delegatorId)
    .where('d.ended_at', 'is', null)
    .where('d.ends_at', '>', now)
    .orderBy('d.starts_at')
    .executeTakeFirst();
}

/** A delegation by id, locked, with both people's names and emails. */
export async function delegationForUpdate(tx: Tx, id: string) {
  return tx
    .selectFrom('brm_delegations as d')
    .innerJoin('accounts as r', 'r.id', 'd.delegator_id')
    .leftJoin('accounts as g', 'g.id', 'd.delegate_id')
    .select([
      ...delegationColumns,
      'd.ended_at',
      'r.username as delegatorUsername',
      'r.given_name as delegatorGivenName',
      'r.family_name as delegatorFamilyName',
      'r.email as delegatorEmail',
      'g.username as delegateUsername',
      'g.given_name as delegateGivenName',
      'g.family_name as delegateFamilyName',
      'g.email as delegateEmail',
    ])
    .where('d.id', '=', id)
    .forUpdate(['d'])
    .executeTakeFirst();
}

/**
 * The delegations active at `now` that hand the delegators' approvals to the account, with each
 * delegator's assignments (one level: the delegator's own, never what was delegated to them).
 */
export async function delegationsTo(db: Db | Tx, delegateId: string, now: Date) {
  const rows = await db
    .selectFrom('brm_delegations as d')
    .innerJoin('accounts as r', 'r.id', 'd.delegator_id')
    .leftJoin('brm_assignments as b', 'b.account_id', 'd.delegator_id')
    .select([
      'd.delegator_id',
      'd.starts_at',
      'd.move_pending',
      'r.given_name',
      'r.family_name',
      'r.username',
      'b.organization_id',
      'b.kind',
    ])
    .where('d.delegate_id', '=', delegateId)
    .where('d.ended_at', 'is', null)
    .where('d.starts_at', '<=', now)
    .where('d.ends_at', '>', now)
    .where('r.status', '=', 'active')
    .execute();
  return rows;
}

/**
 * The delegates (null: InfoSec) of the accounts named, for the delegations active at `now` that
 * cover an item created at `createdAt`.
 */
export async function activeDelegatesOf(
  db: Db | Tx,
  delegatorIds: readonly string[],
  now: Date,
  createdAt: Date,
) {
  if (delegatorIds.length === 0) return [];
  return db
    .selectFrom('brm_delegations as d')
    .leftJoin('accounts as g', 'g.id', 'd.delegate_id')
    .select(['d.delegator_id', 'd.delegate_id', 'g.email', 'g.given_name', 'g.family_name', 'g.status'])
    .where('d.delegator_id', 'in', [...delegatorIds])
    .where('d.ended_at', 'is', null)
    .where('d.starts_at', '<=', now)
    .where('d.ends_at', '>', now)
    .where((eb) => eb.or([eb('d.move_pending', '=', true), eb('d.starts_at', '<=', createdAt)]))
    .execute();
}

/** Delegations whose start is due and not yet announced (limit: one batch). */
export async function delegationsStarted(db: Db | Tx, now: Date, limit: number) {
  return db
    .selectFrom('brm_delegations as d')
    .select('d.id')
    .where('d.ended_at', 'is', null)
    .where('d.starts_at', '<=', now)
    .where('d.ends_at', '>', now)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('governance_notices as n')
            .select(sql`1`.as('one'))
            .where('n.kind', '=', 'delegation')
            .where('n.subject_id', '=', sql<string>`d.id::text`)
            .where('n.milestone', '=', 'start'),
        ),
      ),
    )
    .limit(limit)
    .execute();
}

/**
 * Open delegations that must end: their end passed, or the delegate (an account) is no longer an
 * active BRM sharing an organization with the delegator, or the delegator no longer a BRM.
 */
export async function delegationsToEnd(db: Db | Tx, now: Date, limit: number) {
  return db
    .selectFrom('brm_delegations as d')
    .innerJoin('accounts as r', 'r.id', 'd.delegator_id')
    .leftJoin('accounts as g', 'g.id', 'd.delegate_id')
    .select([
      'd.id',
      sql<boolean>`d.ends_at <= ${now}`.as('timeUp'),
      sql<boolean>`not (r.status = 'active' and ${hasKindSql('r', 'employeeBrm')})`.as('delegatorGone'),
    ])
    .where('d.ended_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('d.ends_at', '<=', now),
        sql<boolean>`not (r.status = 'active' and ${hasKindSql('r', 'employeeBrm')})`,
        sql<boolean>`(d.delegate_id is not null and not (g.status = 'active' and ${hasKindSql('g', 'employeeBrm')}
          and exists (select 1 from brm_assignments mine join brm_assignments theirs
                      on theirs.organization_id = mine.organization_id
                      where mine.account_id = d.delegator_id and theirs.account_id = d.delegate_id)))`,
      ]),
    )
    .limit(limit)
    .execute();
}

// --- request items: deadlines, reminders, forwards, expiry ---

/**
 * Pending items with a milestone possibly due at `now` (created at least `minDays` ago, or without
 * an active primary BRM to decide them), with their tier and the milestones already recorded.
 */
export async function pendingItemsToRoute(
  db: Db | Tx,
  now: Date,
  minDays: number,
  limit: number,
  after: string,
) {
  const since = new Date(now.getTime() - minDays * 86_400_000);
  return (
    db
      .selectFrom('request_items as i')
      .innerJoin('organizations as o', 'o.id', 'i.organization_id')
      .select([
        'i.id',
        'i.organization_id',
        'i.created_at',
        'i.expires_at',
        'i.forwarded_at',
        'o.risk_tier',
        sql<string[]>`array(select n.milestone from governance_notices n
        where n.kind = 'request-item' and n.subject_id = i.id::text)`.as('milestones'),
      ])
      .where('i.status', '=', 'pending')
      // Emergency follow-ups and reported departures keep deadlines of their own (identity/governance/emergency.ts).
      .where('i.operation', 'in', ['Add', 'Remove', 'Extend'])
      .where('i.id', '>', after)
      .where((eb) =>
        eb.or([
          eb('i.created_at', '<=', since),
          eb('i.expires_at', '<=', now),
          eb.and([
            eb('i.forwarded_at', 'is', null),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('brm_assignments as b')
                  .innerJoin('accounts as a', 'a.id', 'b.account_id')
                  .select(sql`1`.as('one'))
                  .whereRef('b.organization_id', '=', 'i.organization_id')
                  .where('b.kind', '=', 'primary')
                  .where('a.status', '=', 'active')
                  .where(hasKindSql('a', 'employeeBrm')),
              ),
            ),
          ]),
        ]),
      )
      .orderBy('i.id')
      .limit(limit)
      .execute()
  );
}

/** Whether the organization has an active primary BRM. */
export async function hasActivePrimary(db: Db | Tx, organizationId: string): Promise<boolean> {
  return (await brmsOf(db, organizationId, 'primary')).length > 0;
}

/** One pending item with its request and organization, locked: null once decided or gone. */
export async function pendingItemForUpdate(tx: Tx, itemId: string) {
  return tx
    .selectFrom('request_items as i')
    .innerJoin('requests as r', 'r.id', 'i.request_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('accounts as q', 'q.id', 'r.requester_id')
    .leftJoin('accounts as b', 'b.id', 'r.beneficiary_id')
    .select([
      'i.id',
      'i.request_id',
      'i.organization_id',
      'i.created_at',
      'i.expires_at',
      'i.forwarded_at',
      'o.name as orgName',
      'o.risk_tier',
      'r.type',
      'r.first_name',
      'r.last_name',
      'r.email',
      'r.beneficiary_id',
      'q.email as requesterEmail',
      'q.given_name as requesterGivenName',
      'b.username as beneficiaryUsername',
      'b.given_name as beneficiaryGivenName',
      'b.family_name as beneficiaryFamilyName',
    ])
    .where('i.id', '=', itemId)
    .where('i.status', '=', 'pending')
    .forUpdate(['i'])
    .executeTakeFirst();
}

/**
 * Records a routing milestone of a subject once (`kind`: 'request-item' or 'delegation'); true when
 * this call recorded it. `skipped`: passed over by the catch-up rule, no mail.
 */
export async function recordNotice(
  tx: Tx,
  n: { kind: string; subjectId: string; milestone: string; at: Date; skipped?: boolean },
): Promise<boolean> {
  const result = await tx
    .insertInto('governance_notices')
    .values({
      kind: n.kind,
      subject_id: n.subjectId,
      milestone: n.milestone,
      sent_at: n.at,
      skipped: n.skipped ?? false,
    })
    .onConflict((oc) => oc.columns(['kind', 'subject_id', 'milestone']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function markReminded(tx: Tx, itemId: string, at: Date): Promise<void> {
  await tx.updateTable('request_items').set({ reminded_at: at }).where('id', '=', itemId).execute();
}

export async function markForwarded(tx: Tx, itemId: string, at: Date): Promise<void> {
  await tx.updateTable('request_items').set({ forwarded_at: at }).where('id', '=', itemId).execute();
}

/** Expires the item if still pending; true when this call did. */
export async function expireItem(tx: Tx, itemId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .updateTable('request_items')
    .set({ status: 'expired', decided_at: at })
    .where('id', '=', itemId)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Closes a request none of whose items is pending: approved or denied if any was, else expired. */
export async function settleExpiredRequest(tx: Tx, requestId: string, at: Date): Promise<void> {
  await sql`
    update requests set
      status = case
        when exists (select 1 from request_items where request_id = ${requestId} and status = 'approved') then 'approved'
        when exists (select 1 from request_items where request_id = ${requestId} and status = 'denied') then 'denied'
        when exists (select 1 from request_items where request_id = ${requestId} and status = 'cancelled') then 'cancelled'
        else 'expired' end,
      updated_at = ${at}
    where id = ${requestId} and status = 'pending'
      and not exists (select 1 from request_items where request_id = ${requestId} and status = 'pending')`.execute(
    tx,
  );
}

/** Appends to the items' routing history. */
export async function addRouting(
  tx: Tx,
  rows: { itemId: string; at: Date; event: RoutingEvent; recipients: string[] }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insertInto('request_routing')
    .values(
      rows.map((r) => ({
        item_id: r.itemId,
        occurred_at: r.at,
        event: r.event,
        recipients: r.recipients.join(', ').slice(0, 2000),
      })),
    )
    .execute();
}

/** The routing history of the items, oldest first. */
export async function routingOf(db: Db | Tx, itemIds: readonly string[]) {
  return inChunks(itemIds, (chunk) =>
    db
      .selectFrom('request_routing')
      .select(['item_id', 'occurred_at', 'event', 'recipients'])
      .where('item_id', 'in', chunk)
      .orderBy('occurred_at')
      .orderBy('id')
      .execute(),
  );
}

/** The pending items a delegator could decide as a primary BRM (what "Also move my pending items" moves). */
export async function pendingPrimaryItemsOf(db: Db | Tx, delegatorId: string) {
  return db
    .selectFrom('request_items as i')
    .innerJoin('brm_assignments as b', 'b.organization_id', 'i.organization_id')
    .select(['i.id'])
    .where('b.account_id', '=', delegatorId)
    .where('i.status', '=', 'pending')
    .where((eb) => eb.or([eb('b.kind', '=', 'primary'), eb('i.forwarded_at', 'is not', null)]))
    .execute();
}
