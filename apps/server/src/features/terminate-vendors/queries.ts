import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';

/** Lookups are split so no statement carries more than this many parameters. */
const CHUNK = 1000;

async function inChunks<T, R>(items: readonly T[], run: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const all: R[] = [];
  for (let i = 0; i < items.length; i += CHUNK) all.push(...(await run(items.slice(i, i + CHUNK))));
  return all;
}

/** The organizations an employee BRM manages, by name. */
export async function managedOrganizations(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('brm_assignments as b')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select(['o.id', 'o.name'])
    .where('b.account_id', '=', accountId)
    .orderBy('o.name')
    .execute();
}

/** Every account whose email is one of `emails` (already lower-case), with its email lower-cased. */
export async function accountsByEmails(db: Db, emails: readonly string[]) {
  return inChunks(emails, (chunk) =>
    db
      .selectFrom('accounts')
      .select(['id', 'username', 'type', 'status', sql<string>`lower(email)`.as('email')])
      .where(sql<string>`lower(email)`, 'in', chunk)
      .orderBy('username')
      .execute(),
  );
}

/** Which organizations' roles each of the accounts holds. */
export async function grantsOf(db: Db | Tx, accountIds: readonly string[]) {
  return inChunks(accountIds, (chunk) =>
    db
      .selectFrom('role_grants')
      .select(['account_id', 'organization_id'])
      .where('account_id', 'in', chunk)
      .execute(),
  );
}

/** The account's status, its row locked for the rest of the transaction. */
export async function lockAccount(tx: Tx, accountId: string) {
  return tx
    .selectFrom('accounts')
    .select(['id', 'username', 'status'])
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
}
