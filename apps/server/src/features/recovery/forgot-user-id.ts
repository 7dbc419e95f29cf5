import type { UserIdSearchBody, UserIdSearchResponse } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { recordAudit } from '../../identity/audit';
import { mailSite, userIdReminderMail } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { accountSummary } from '../../identity/accounts';
import { findAccountsByNamesAndEmail } from '../../store/accounts';

/**
 * Forgot User ID: the one active or pending account whose names and email match exactly
 * (ignoring case). A match is shown (the spec's Found User view) and also mailed to the
 * account's own address, so the owner learns that someone looked it up.
 */
export async function searchUserId(
  ctx: AppContext,
  search: UserIdSearchBody,
  clientAddress: string,
): Promise<UserIdSearchResponse> {
  const found = await findAccountsByNamesAndEmail(ctx.db, search);
  const account = found.length === 1 ? found[0] : undefined;
  if (!account) return { isValid: false };
  await ctx.db.transaction().execute(async (tx) => {
    await enqueueMail(tx, {
      to: account.email,
      ...userIdReminderMail(mailSite(ctx), { firstName: account.given_name, username: account.username }),
    });
    await recordAudit(tx, {
      action: 'account.user-id-reminder',
      outcome: 'success',
      actor: null,
      target: { id: account.id, username: account.username },
      clientAddress,
    });
  });
  return { isValid: true, user: accountSummary(account) };
}
