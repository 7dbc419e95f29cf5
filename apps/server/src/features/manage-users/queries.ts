import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { isAdmin, isEmployeeBrm } from '../../identity/account-kinds';

/**
 * The vendors the account manages, by username: an admin every vendor, a BRM those holding the
 * role of an organization it manages (pending activation included), anyone else none.
 * Terminated accounts are not listed.
 */
export async function listManagedVendors(db: Db | Tx, account: Account) {
  let query = db
    .selectFrom('accounts as a')
    .select(['a.username', 'a.given_name', 'a.family_name', 'a.email', 'a.status'])
    .where('a.type', '=', 'vendor')
    .where('a.status', '!=', 'terminated');
  if (!isAdmin(account)) {
    if (!isEmployeeBrm(account)) return [];
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('role_grants as g')
          .innerJoin('brm_assignments as b', 'b.organization_id', 'g.organization_id')
          .select(sql`1`.as('one'))
          .whereRef('g.account_id', '=', 'a.id')
          .where('b.account_id', '=', account.id),
      ),
    );
  }
  return query.orderBy(sql`lower(a.username)`).execute();
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
