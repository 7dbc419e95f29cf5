import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';

/** A code by its hash, with its account and whether it has expired (by the database's clock). */
export async function findCodeWithAccount(db: Db | Tx, codeHash: string) {
  return db
    .selectFrom('codes as c')
    .innerJoin('accounts as a', 'a.id', 'c.account_id')
    .selectAll('a')
    .select(['c.id as codeId', 'c.kind', 'c.used_at', sql<boolean>`c.expires_at <= now()`.as('expired')])
    .where('c.code_hash', '=', codeHash)
    .executeTakeFirst();
}

/** Marks an unused, unexpired code used; undefined when another request got there first. */
export async function claimActivationCode(tx: Tx, codeId: string): Promise<{ id: string } | undefined> {
  return tx
    .updateTable('codes')
    .set({ used_at: sql<Date>`now()` })
    .where('id', '=', codeId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
}

/**
 * Sets the first password of a pending account, activates it and records the password in its
 * history; false when the account is no longer pending.
 */
export async function setFirstPassword(tx: Tx, accountId: string, passwordHash: string): Promise<boolean> {
  const activated = await tx
    .updateTable('accounts')
    .set({
      password_hash: passwordHash,
      password_changed_at: sql<Date>`now()`,
      status: 'active',
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', accountId)
    .where('status', '=', 'pendingActivation')
    .returning('id')
    .executeTakeFirst();
  if (!activated) return false;
  await tx
    .insertInto('password_history')
    .values({ account_id: accountId, password_hash: passwordHash })
    .execute();
  return true;
}
