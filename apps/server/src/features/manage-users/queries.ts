import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { principalOf } from '../../policies/actor';
import * as vendor from '../../policies/vendor';

/**
 * The vendors the account manages (the vendor policy's scope), by username: an admin every vendor,
 * a BRM those holding the role of an organization it manages (pending activation included), anyone
 * else none. Terminated accounts are not listed. Each with the organizations whose role it holds.
 */
export async function listManagedVendors(db: Db | Tx, account: Account) {
  return db
    .selectFrom('accounts as a')
    .select(['a.username', 'a.given_name', 'a.family_name', 'a.email', 'a.status'])
    .select(
      sql<string[]>`array(select g.organization_id::text from role_grants g where g.account_id = a.id)`.as(
        'organizationIds',
      ),
    )
    .where(vendor.scopeOf(principalOf(account), 'a'))
    .orderBy(sql`lower(a.username)`)
    .execute();
}

/** A vendor account by username (case-insensitive), locked for the rest of the transaction. */
export async function findVendorForUpdate(tx: Tx, username: string): Promise<Account | undefined> {
  return tx
    .selectFrom('accounts')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .where('type', '=', 'vendor')
    .forUpdate()
    .executeTakeFirst();
}
