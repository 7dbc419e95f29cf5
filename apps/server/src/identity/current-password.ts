import { profileMessages } from '@pra/contracts';
import type { AppContext } from '../platform/app-context';
import { tooManyRequests } from '../platform/app-error';
import type { Account } from '../platform/db-schema';
import { claimAttempt, lockKey, releaseAttempt, secondsUntilAttempt } from './lockout';
import { recordSignInFailure } from './sign-in-failure';
import { DirectoryUnavailableError } from '../platform/directory/identity-store';
import { directoryUnavailable, passwordMatches } from './directory-password';
import { enforceRateLimit } from './rate-limit';

/** Confirmations per account: enough for typos, far too few to guess (the lockout applies as well). */
const REAUTH_RATE = { limit: 10, windowSeconds: 15 * 60 };

/**
 * Checks the signed-in account's current password (a re-authentication before a sensitive
 * change). A wrong one counts toward the sign-in lockout exactly like a wrong password at the
 * IdP (same counters); a locked account is refused unchecked (429).
 */
export async function checkCurrentPassword(
  ctx: AppContext,
  account: Account,
  password: string,
  clientAddress: string,
): Promise<boolean> {
  await enforceRateLimit(ctx.db, `reauthenticate:${account.id}`, REAUTH_RATE);
  const attempt = { lockKey: lockKey(account, account.username), clientAddress };
  // The lock's remaining time, in the message and as Retry-After.
  const lockedError = async () =>
    tooManyRequests(await secondsUntilAttempt(ctx.db, ctx.config, attempt), profileMessages.locked);
  const claim = await claimAttempt(ctx.db, ctx.config, attempt);
  if (!claim) throw await lockedError();
  let matches: boolean;
  try {
    matches = await passwordMatches(ctx, account, password);
  } catch (error) {
    // The directory does not answer: no verdict, so no failed attempt either.
    await releaseAttempt(ctx.db, claim);
    if (error instanceof DirectoryUnavailableError) throw directoryUnavailable();
    throw error;
  }
  if (matches) {
    await releaseAttempt(ctx.db, claim);
    return true;
  }
  const { locked } = await recordSignInFailure(ctx, claim, {
    account,
    action: 'signin.password',
    clientAddress,
    details: { reason: 'wrongCurrentPassword' },
  });
  if (locked) throw await lockedError();
  return false;
}
