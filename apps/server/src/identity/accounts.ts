import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { isAdmin, isVendor } from './account-kinds';

export async function findAccountByUsername(db: Db | Tx, username: string): Promise<Account | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function findAccountById(db: Db | Tx, id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The organizations a person acts for: a vendor's held roles, a BRM's managed organizations,
 * every active organization for an admin. Names, sorted.
 */
export async function organizationsOf(db: Db | Tx, account: Account): Promise<string[]> {
  if (isAdmin(account)) {
    const rows = await db
      .selectFrom('organizations')
      .select('name')
      .where('is_active', '=', true)
      .orderBy('name')
      .execute();
    return rows.map((r) => r.name);
  }
  const rows = !isVendor(account)
    ? await db
        .selectFrom('brm_assignments as b')
        .innerJoin('organizations as o', 'o.id', 'b.organization_id')
        .select('o.name')
        .where('b.account_id', '=', account.id)
        .orderBy('o.name')
        .execute()
    : await db
        .selectFrom('role_grants as g')
        .innerJoin('organizations as o', 'o.id', 'g.organization_id')
        .select('o.name')
        .where('g.account_id', '=', account.id)
        .orderBy('o.name')
        .execute();
  return rows.map((r) => r.name);
}
