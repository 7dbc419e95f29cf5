import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';

/** Pending request items the account may decide: its managed organizations, or all for an admin. */
export async function countDecidableItems(db: Db | Tx, account: Account): Promise<number> {
  let query = db
    .selectFrom('request_items as i')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('i.status', '=', 'pending');
  if (!account.is_admin) {
    query = query.where('i.organization_id', 'in', (eb) =>
      eb.selectFrom('brm_assignments').select('organization_id').where('account_id', '=', account.id),
    );
  }
  const row = await query.executeTakeFirst();
  return row?.count ?? 0;
}

/** The pending items the account may decide, with what the approvals page shows of each. */
export async function listDecidableItems(db: Db | Tx, account: Account) {
  let query = db
    .selectFrom('request_items as i')
    .innerJoin('requests as r', 'r.id', 'i.request_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('accounts as requester', 'requester.id', 'r.requester_id')
    .leftJoin('accounts as beneficiary', 'beneficiary.id', 'r.beneficiary_id')
    .select([
      'i.id as itemId',
      'r.id as requestId',
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
    ])
    .where('i.status', '=', 'pending')
    .orderBy('r.created_at', 'desc')
    .orderBy('i.id');
  if (!account.is_admin) {
    query = query.where('i.organization_id', 'in', (eb) =>
      eb.selectFrom('brm_assignments').select('organization_id').where('account_id', '=', account.id),
    );
  }
  return query.execute();
}
export type DecidableItemRow = Awaited<ReturnType<typeof listDecidableItems>>[number];

/** The organizations a BRM manages, as ids. */
export async function managedOrganizationIds(db: Db | Tx, accountId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('brm_assignments')
    .select('organization_id')
    .where('account_id', '=', accountId)
    .execute();
  return new Set(rows.map((r) => r.organization_id));
}

/** A request, with its beneficiary's username once it has an account. */
export async function findRequest(db: Db | Tx, requestId: string) {
  return db
    .selectFrom('requests as r')
    .leftJoin('accounts as b', 'b.id', 'r.beneficiary_id')
    .selectAll('r')
    .select('b.username as beneficiaryUsername')
    .where('r.id', '=', requestId)
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
