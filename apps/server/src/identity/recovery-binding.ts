import type { Tx } from '../platform/db';
import * as sessions from '../store/sessions';
import type { StoredSession } from '../store/sessions';

/** The session key of the Forgot Password flow: the account it is for, and how far it got. */
export const RECOVERY_KEY = 'recovery';

/** How long a verified recovery may set the password (PRODUCT.md, "Forgot password"). */
export const RECOVERY_VERIFIED_MS = 10 * 60 * 1000;

export interface RecoveryBinding {
  /** The account identify (or a valid reset code) bound to this session. */
  accountId: string;
  /** Until when (epoch ms) the session may set the account's password; absent until verified. */
  verifiedUntil?: number;
  /** The reset code that verified the session, used up when the password is set. */
  codeId?: string;
  /** How the session was verified (`passcode`, `push`, `securityKey`, `resetLink`). */
  method?: string;
}

/** The session's recovery binding, if it has a well-formed one. */
export function readRecoveryBinding(session: StoredSession | null): RecoveryBinding | null {
  const value = session?.data[RECOVERY_KEY];
  if (typeof value !== 'object' || value === null) return null;
  const { accountId, verifiedUntil, codeId, method } = value as Record<string, unknown>;
  if (typeof accountId !== 'string') return null;
  return {
    accountId,
    ...(typeof verifiedUntil === 'number' ? { verifiedUntil } : {}),
    ...(typeof codeId === 'string' ? { codeId } : {}),
    ...(typeof method === 'string' ? { method } : {}),
  };
}

/** Whether the session has verified its bound account and may still set its password. */
export function isRecoveryVerified(binding: RecoveryBinding | null, now: number): boolean {
  return binding?.verifiedUntil !== undefined && binding.verifiedUntil > now;
}

/**
 * Takes the session's verification for the account, in one guarded update: the recovery binding
 * is removed only when it still names the account and is verified until after `now`. Two
 * set-password calls at once: one gets it. False when there was none to take.
 */
export async function takeVerification(tx: Tx, sessionIdHash: string, accountId: string, now: number) {
  return sessions.takeGrant(tx, sessionIdHash, {
    key: RECOVERY_KEY,
    accountId,
    untilField: 'verifiedUntil',
    now,
  });
}
