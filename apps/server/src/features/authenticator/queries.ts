import type { Tx } from '../../platform/db';
import * as sessions from '../../store/sessions';

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
  return sessions.takeGrant(tx, sessionIdHash, {
    key: FACTOR_CONFIRMATION_KEY,
    accountId,
    untilField: 'until',
    now,
  });
}
