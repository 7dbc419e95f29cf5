import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';

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
