import type { AppContext } from '../platform/app-context';
import type { Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { recordAudit } from './audit';
import { createCode } from './codes';
import { mailSite, passwordResetLinkMail } from './mail-templates';
import { enqueueMail } from './outbox';
import { enforceRateLimit, type RateLimitRule } from './rate-limit';

/**
 * However it is asked for (the person's Forgot Password, a manager's one-time password mail), an
 * account gets at most this many reset links an hour: a script or a careless manager cannot flood
 * its mailbox. Past it the call answers 429 and nothing is sent.
 */
export const RESET_LINKS_PER_HOUR: RateLimitRule = { limit: 5, windowSeconds: 3600 };

/**
 * Creates a single-use password-reset code for the account (earlier unused ones stop working)
 * and mails the owner the link `/forgot-password?code=…`, in the caller's transaction. Used by
 * the Forgot Password flow's "Send Password Reset Email" and by a manager's "Send One-Time
 * Password E-mail". The code itself is never returned, logged or audited.
 */
export async function sendResetLink(
  tx: Tx,
  ctx: AppContext,
  request: {
    account: Pick<Account, 'id' | 'username' | 'given_name' | 'email'>;
    actor: { id: string | null; username: string } | null;
    clientAddress: string;
    /** Audit action: `password.reset-link` (self-service) or `user.send-otp-email` (a manager). */
    action: string;
  },
): Promise<void> {
  const { account } = request;
  // Counted in the caller's transaction: a refused link rolls back with it, an allowed one counts.
  await enforceRateLimit(tx, `reset-link:${account.id}`, RESET_LINKS_PER_HOUR);
  const minutes = ctx.config.RESET_CODE_TTL_MINUTES;
  const code = await createCode(tx, {
    pepper: ctx.session.secret,
    accountId: account.id,
    kind: 'reset',
    ttlSeconds: minutes * 60,
  });
  await enqueueMail(tx, {
    to: account.email,
    ...passwordResetLinkMail(mailSite(ctx), {
      firstName: account.given_name,
      username: account.username,
      code,
      minutes,
    }),
  });
  await recordAudit(tx, {
    action: request.action,
    outcome: 'success',
    actor: request.actor,
    target: { id: account.id, username: account.username },
    clientAddress: request.clientAddress,
  });
}
