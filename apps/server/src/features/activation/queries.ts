import { sql } from 'kysely';
import type { Tx } from '../../platform/db';

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
