import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';
import { takeSessionGrant } from '../../http/session';
import { RECOVERY_KEY } from '../../identity/recovery-binding';

/**
 * The active or pending accounts whose given name, family name and email all equal the typed
 * ones, ignoring case (Forgot User ID).
 */
export async function findAccountsByNamesAndEmail(
  db: Db,
  search: { firstName: string; lastName: string; email: string },
) {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<string>`lower(given_name)`, '=', search.firstName.toLowerCase())
    .where(sql<string>`lower(family_name)`, '=', search.lastName.toLowerCase())
    .where(sql<string>`lower(email)`, '=', search.email.toLowerCase())
    .where('status', 'in', ['active', 'pendingActivation'])
    .orderBy('created_at')
    .limit(2)
    .execute();
}

/**
 * Takes the session's verification for the account, in one guarded update: the recovery binding
 * is removed only when it still names the account and is verified until after `now`. Two
 * set-password calls at once: one gets it. False when there was none to take.
 */
export async function takeVerification(tx: Tx, sessionIdHash: string, accountId: string, now: number) {
  return takeSessionGrant(tx, sessionIdHash, {
    key: RECOVERY_KEY,
    accountId,
    untilField: 'verifiedUntil',
    now,
  });
}

/** Uses up a reset code that is still unused; false when another request used it first. */
export async function claimResetCode(tx: Tx, codeId: string): Promise<boolean> {
  const row = await tx
    .updateTable('codes')
    .set({ used_at: sql<Date>`now()` })
    .where('id', '=', codeId)
    .where('kind', '=', 'reset')
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
