import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';
import { principalOf } from '../../policies/actor';
import * as request from '../../policies/request';
import type { Account } from '../../platform/db-schema';

/**
 * The pending request items the account may decide (the request policy's scope): all for an admin,
 * those of its managed organizations for a BRM, none for anyone else. The count and the list build on it.
 */
function decidableItems(db: Db | Tx, account: Account) {
  return db
    .selectFrom('request_items as i')
    .where('i.status', '=', 'pending')
    .where(request.scopeOf(principalOf(account), 'i'));
}

/** How many pending request items the account may decide. */
export async function countDecidableItems(db: Db | Tx, account: Account): Promise<number> {
  const row = await decidableItems(db, account)
    .select(sql<number>`count(*)::int`.as('count'))
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** The pending items the account may decide, newest first, with what the approvals page shows of each. */
export async function listDecidableItems(db: Db | Tx, account: Account) {
  return decidableItems(db, account)
    .innerJoin('requests as r', 'r.id', 'i.request_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('accounts as requester', 'requester.id', 'r.requester_id')
    .leftJoin('accounts as beneficiary', 'beneficiary.id', 'r.beneficiary_id')
    .select([
      'i.id as itemId',
      'i.organization_id as organizationId',
      'r.id as requestId',
      'r.beneficiary_id as beneficiaryId',
      'r.type',
      'r.first_name',
      'r.last_name',
      'r.email',
      'r.job_title',
      'r.manager',
      'r.comment',
      'r.created_at',
      'o.name as orgName',
      'requester.username as requesterUsername',
      'beneficiary.username as beneficiaryUsername',
      'beneficiary.given_name as beneficiaryGivenName',
      'beneficiary.family_name as beneficiaryFamilyName',
      'beneficiary.email as beneficiaryEmail',
      'beneficiary.job_title as beneficiaryJobTitle',
      'beneficiary.manager as beneficiaryManager',
      'beneficiary.status as beneficiaryStatus',
    ])
    .orderBy('r.created_at', 'desc')
    .orderBy('i.id')
    .execute();
}
export type DecidableItemRow = Awaited<ReturnType<typeof listDecidableItems>>[number];

/**
 * A request, with its beneficiary's username once it has an account, locked for the rest of the
 * transaction: two people deciding different items of one request then take turns, so the second
 * sees the first's decision when it settles the request.
 */
export async function findRequestForUpdate(tx: Tx, requestId: string) {
  return tx
    .selectFrom('requests as r')
    .leftJoin('accounts as b', 'b.id', 'r.beneficiary_id')
    .leftJoin('accounts as q', 'q.id', 'r.requester_id')
    .selectAll('r')
    .select([
      'b.username as beneficiaryUsername',
      'q.email as requesterEmail',
      'q.given_name as requesterGivenName',
    ])
    .where('r.id', '=', requestId)
    .forUpdate(['r'])
    .executeTakeFirst();
}

export async function itemsOfRequest(db: Db | Tx, requestId: string) {
  return db
    .selectFrom('request_items as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .select(['i.id', 'i.organization_id', 'i.operation', 'i.status', 'o.name as orgName'])
    .where('i.request_id', '=', requestId)
    .orderBy('i.created_at')
    .execute();
}

/**
 * Marks the item decided only if it is still pending: of two concurrent decisions, exactly one
 * gets the row back (the other waits for the row lock, then finds it no longer pending).
 */
export async function decideItem(
  tx: Tx,
  item: { id: string; status: 'approved' | 'denied'; deciderId: string; comment: string },
): Promise<boolean> {
  const row = await tx
    .updateTable('request_items')
    .set({
      status: item.status,
      decided_by: item.deciderId,
      decided_at: sql<Date>`now()`,
      decision_comment: item.comment,
    })
    .where('id', '=', item.id)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/** Closes the request once none of its items is pending: approved if any item was. */
export async function settleRequest(tx: Tx, requestId: string): Promise<void> {
  await sql`
    update requests set
      status = case when exists (select 1 from request_items where request_id = ${requestId} and status = 'approved')
                    then 'approved' else 'denied' end,
      updated_at = now()
    where id = ${requestId} and status = 'pending'
      and not exists (select 1 from request_items where request_id = ${requestId} and status = 'pending')`.execute(
    tx,
  );
}
