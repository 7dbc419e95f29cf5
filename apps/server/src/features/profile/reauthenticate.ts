import { profileMessages, REAUTHENTICATION_MINUTES } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError, tooManyRequests } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import type { Session } from '../../http/session';
import { recordAudit } from '../../identity/audit';
import { verifyPassword } from '../../identity/passwords';
import { enforceRateLimit } from '../../identity/rate-limit';
import { claimAttempt, lockKey, releaseAttempt, secondsUntilAttempt } from '../../idp/lockout';
import { recordSignInFailure } from '../../idp/sign-in-failure';
import { markReauthenticated } from './queries';

/** Confirmations per account: enough for typos, far too few to guess (the lockout applies as well). */
const REAUTH_RATE = { limit: 10, windowSeconds: 15 * 60 };

/**
 * GET /api/user/auth: checks the signed-in account's current password. A wrong one counts toward
 * the sign-in lockout exactly like a wrong password at the IdP (same counters), a locked account
 * is refused unchecked; a right one marks the session re-authenticated for a few minutes.
 */
export async function reauthenticate(options: {
  ctx: AppContext;
  account: Account;
  session: Session;
  username: string;
  password: string;
  clientAddress: string;
}): Promise<boolean> {
  const { ctx, account, session, clientAddress } = options;
  const who = { id: account.id, username: account.username };
  if (options.username.trim().toLowerCase() !== account.username.toLowerCase()) {
    await recordAudit(ctx.db, {
      action: 'password.reauthenticate',
      outcome: 'denied',
      actor: who,
      target: who,
      clientAddress,
      details: { reason: 'otherAccount' },
    });
    throw new AppError('forbidden', profileMessages.otherAccount);
  }
  await enforceRateLimit(ctx.db, `reauthenticate:${account.id}`, REAUTH_RATE);
  const attempt = { lockKey: lockKey(account, account.username), clientAddress };
  const locked = async () =>
    tooManyRequests(await secondsUntilAttempt(ctx.db, ctx.config, attempt), profileMessages.locked);
  const claim = await claimAttempt(ctx.db, ctx.config, attempt);
  if (!claim) throw await locked();
  if (account.password_hash && (await verifyPassword(account.password_hash, options.password))) {
    await releaseAttempt(ctx.db, claim);
    await ctx.db.transaction().execute(async (tx) => {
      await markReauthenticated(tx, session.idHash, REAUTHENTICATION_MINUTES);
      await recordAudit(tx, {
        action: 'password.reauthenticate',
        outcome: 'success',
        actor: who,
        target: who,
        clientAddress,
      });
    });
    return true;
  }
  const failure = await recordSignInFailure(ctx, claim, {
    account,
    action: 'signin.password',
    clientAddress,
    details: { reason: 'wrongCurrentPassword' },
  });
  if (failure.locked) throw await locked();
  return false;
}
