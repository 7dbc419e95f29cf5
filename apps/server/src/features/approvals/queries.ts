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
