import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';
import { takeSessionGrant } from '../../http/session';
import { isRecentSql } from '../../identity/mfa/push';

/** The session data key of the owner's confirmation before a factor change. */
export const FACTOR_CONFIRMATION_KEY = 'factorConfirmation';

/** What the confirmation holds: whose it is and until when (ms since the epoch) it may be used. */
export interface FactorConfirmation {
  accountId: string;
  until: number;
}

/**
 * Takes the session's confirmation for the account (`takeSessionGrant`): only one that still
 * names the account and lasts until after `now`; two changes at once: one gets it.
 */
export async function takeFactorConfirmation(
  tx: Tx,
  sessionIdHash: string,
  accountId: string,
  now: number,
): Promise<boolean> {
  return takeSessionGrant(tx, sessionIdHash, {
    key: FACTOR_CONFIRMATION_KEY,
    accountId,
    untilField: 'until',
    now,
  });
}

/** The account's live paired phones, oldest first. */
export async function listAuthenticators(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('authenticators')
    .select(['id', 'nickname', 'created_at', isRecentSql('created_at').as('is_recent')])
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

/** Unpairs one of the account's live phones; its nickname, or undefined when there was none. */
export async function revokeAuthenticator(tx: Tx, accountId: string, id: string) {
  const row = await tx
    .updateTable('authenticators')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .returning('nickname')
    .executeTakeFirst();
  return row?.nickname;
}
