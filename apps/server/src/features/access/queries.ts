import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';

/** A vendor account that is not terminated, by username (case-insensitive). */
export async function findVendor(db: Db | Tx, username: string) {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<boolean>`lower(username) = lower(${username})`)
    .where('type', '=', 'vendor')
    .where('status', '!=', 'terminated')
    .executeTakeFirst();
}

/** The pending Add Access and Remove Access items for the account, with their request and who asked. */
export async function pendingItems(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('request_items as i')
    .innerJoin('requests as r', 'r.id', 'i.request_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('accounts as requester', 'requester.id', 'r.requester_id')
    .select([
      'r.id as requestId',
      'i.id as itemId',
      'i.organization_id as organizationId',
      'o.name as orgName',
      'i.operation',
      'requester.username as owner',
    ])
    .where('r.beneficiary_id', '=', accountId)
    .where('r.type', 'in', ['Add Access', 'Remove Access'])
    .where('i.status', '=', 'pending')
    .orderBy('r.created_at')
    .orderBy('o.name')
    .execute();
}

/** Every active organization. */
export async function activeOrganizations(db: Db | Tx) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('is_active', '=', true)
    .orderBy('name')
    .execute();
}

/** Organizations by exact name (active or not). */
export async function organizationsNamed(db: Db | Tx, names: string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('organizations')
    .select(['id', 'name', 'is_active'])
    .where('name', 'in', names)
    .execute();
}

/**
 * One Add Access or Remove Access request with an item per organization: pending for the BRMs,
 * or already approved by `decidedBy` when a BRM or admin makes the change itself.
 */
export async function insertAccessRequest(
  tx: Tx,
  r: {
    type: 'Add Access' | 'Remove Access';
    status: 'pending' | 'approved';
    requesterId: string;
    beneficiary: { id: string; given_name: string; family_name: string; email: string };
    comment: string;
    organizationIds: string[];
    decidedBy: string | null;
  },
): Promise<{ requestId: string; itemIds: Map<string, string> }> {
  const { id: requestId } = await tx
    .insertInto('requests')
    .values({
      type: r.type,
      status: r.status,
      requester_id: r.requesterId,
      beneficiary_id: r.beneficiary.id,
      first_name: r.beneficiary.given_name,
      last_name: r.beneficiary.family_name,
      email: r.beneficiary.email,
      comment: r.comment,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const decided = r.status === 'approved';
  const items = await tx
    .insertInto('request_items')
    .values(
      r.organizationIds.map((organizationId) => ({
        request_id: requestId,
        organization_id: organizationId,
        operation: r.type === 'Add Access' ? ('Add' as const) : ('Remove' as const),
        status: r.status,
        decided_by: decided ? r.decidedBy : null,
        decided_at: decided ? sql<Date>`now()` : null,
        decision_comment: decided ? r.comment : '',
      })),
    )
    .returning(['id', 'organization_id'])
    .execute();
  return { requestId, itemIds: new Map(items.map((i) => [i.organization_id, i.id])) };
}

/** An access request with its beneficiary, locked for the transaction (a cancel racing a decision waits). */
export async function findAccessRequestForUpdate(tx: Tx, requestId: string) {
  return tx
    .selectFrom('requests')
    .select(['id', 'type', 'status', 'beneficiary_id', 'requester_id'])
    .where('id', '=', requestId)
    .where('type', 'in', ['Add Access', 'Remove Access'])
    .forUpdate()
    .executeTakeFirst();
}

/** The request's items still pending. */
export async function pendingItemsOfRequest(tx: Tx, requestId: string) {
  return tx
    .selectFrom('request_items')
    .select(['id', 'organization_id'])
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .execute();
}

/** Cancels the pending items named, recording who and why. */
export async function cancelItems(
  tx: Tx,
  o: { itemIds: string[]; actorId: string; reason: string },
): Promise<number> {
  if (o.itemIds.length === 0) return 0;
  const rows = await tx
    .updateTable('request_items')
    .set({
      status: 'cancelled',
      decided_by: o.actorId,
      decided_at: sql<Date>`now()`,
      decision_comment: o.reason,
    })
    .where('id', 'in', o.itemIds)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  return rows.length;
}

/** Closes a request none of whose items is pending: approved or denied if any item was, else cancelled. */
export async function settleCancelledRequest(tx: Tx, requestId: string): Promise<void> {
  await sql`
    update requests set
      status = case
        when exists (select 1 from request_items where request_id = ${requestId} and status = 'approved') then 'approved'
        when exists (select 1 from request_items where request_id = ${requestId} and status = 'denied') then 'denied'
        else 'cancelled' end,
      updated_at = now()
    where id = ${requestId} and status = 'pending'
      and not exists (select 1 from request_items where request_id = ${requestId} and status = 'pending')`.execute(
    tx,
  );
}
