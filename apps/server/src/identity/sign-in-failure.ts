import type { AppContext } from '../platform/app-context';
import { recordAudit, type AuditEvent } from './audit';
import { mailSite, signInLockedMail } from './mail-templates';
import { enqueueMail } from './outbox';
import type { Account } from '../platform/db-schema';
import { recordFailure, shouldMailLockout, type AttemptClaim } from './lockout';

/** The account a failed step was for, as far as the audit and the lockout mail need it. */
export type FailedAccount = Pick<Account, 'id' | 'username' | 'email' | 'given_name'>;

/**
 * A wrong password or passcode, in one transaction: the failure's audit event and, when it starts
 * a lockout, the lockout's event and (for a real account, at most once an hour) a mail to the
 * owner, so someone guessing at an account does not go unnoticed.
 */
export async function recordSignInFailure(
  ctx: AppContext,
  claim: AttemptClaim,
  event: {
    account: FailedAccount | null;
    action: 'signin.password' | 'signin.mfa';
    clientAddress: string;
    details: AuditEvent['details'];
  },
): Promise<{ locked: boolean }> {
  const { account, clientAddress } = event;
  const target = account ? { id: account.id, username: account.username } : null;
  return ctx.db.transaction().execute(async (tx) => {
    const { lockedMinutes } = await recordFailure(tx, ctx.config, claim);
    await recordAudit(tx, {
      action: event.action,
      outcome: 'failure',
      target,
      clientAddress,
      details: event.details,
    });
    if (lockedMinutes === null) return { locked: false };
    await recordAudit(tx, {
      action: 'signin.lockout',
      outcome: 'failure',
      target,
      clientAddress,
      details: { minutes: lockedMinutes },
    });
    if (account && (await shouldMailLockout(tx, account.id))) {
      await enqueueMail(tx, {
        to: account.email,
        ...signInLockedMail(mailSite(ctx), {
          firstName: account.given_name,
          username: account.username,
          minutes: lockedMinutes,
        }),
      });
    }
    return { locked: true };
  });
}
