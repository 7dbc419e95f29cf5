import type { AppContext } from '../platform/app-context';
import type { Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { createCode } from './codes';
import { accountApprovedMail, mailSite, type OnBehalf } from './mail-templates';
import { enqueueMail } from './outbox';

/**
 * Creates a new activation code for an account pending activation (its earlier unused codes stop
 * working) and queues the approval mail carrying it, in the caller's transaction. The one way an
 * activation code is made: at approval, when an admin resends an undeliverable approval mail, and
 * when an admin resets the code from Manage Users. The code is never returned, logged or audited.
 */
export async function mailActivationCode(
  tx: Tx,
  ctx: AppContext,
  account: Pick<Account, 'id' | 'username' | 'given_name' | 'email'>,
  by: OnBehalf | null = null,
): Promise<void> {
  const days = ctx.config.ACTIVATION_CODE_TTL_DAYS;
  const code = await createCode(tx, {
    pepper: ctx.session.secret,
    accountId: account.id,
    kind: 'activation',
    ttlSeconds: days * 86_400,
  });
  await enqueueMail(tx, {
    to: account.email,
    ...accountApprovedMail(mailSite(ctx), {
      firstName: account.given_name,
      username: account.username,
      code,
      expiresInDays: days,
      by,
    }),
  });
}
