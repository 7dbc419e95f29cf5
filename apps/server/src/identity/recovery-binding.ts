import type { Session } from '../http/session';

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
}

/** The session's recovery binding, if it has a well-formed one. */
export function readRecoveryBinding(session: Session | null): RecoveryBinding | null {
  const value = session?.data[RECOVERY_KEY];
  if (typeof value !== 'object' || value === null) return null;
  const { accountId, verifiedUntil, codeId } = value as Record<string, unknown>;
  if (typeof accountId !== 'string') return null;
  return {
    accountId,
    ...(typeof verifiedUntil === 'number' ? { verifiedUntil } : {}),
    ...(typeof codeId === 'string' ? { codeId } : {}),
  };
}

/** Whether the session has verified its bound account and may still set its password. */
export function isRecoveryVerified(binding: RecoveryBinding | null, now = Date.now()): boolean {
  return binding?.verifiedUntil !== undefined && binding.verifiedUntil > now;
}
