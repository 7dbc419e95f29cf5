import { adminMessages } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { recordAudit } from '../../identity/audit';
import { mailActivationCode } from '../../identity/activation-mail';
import { enqueueMail } from '../../identity/outbox';
import type { Actor } from './actor';
import { sendResetLink } from '../../identity/reset-link';
import { accountByEmail } from '../../store/accounts';
import { findMailForUpdate, markSuperseded, retryNow } from '../../store/outbox';

/**
 * Sends a mail again. A mail that carried an activation code or a reset link is never resent as it
 * was: the account gets a new code (the old one stops working) in a new mail. Any other undeliverable
 * mail is queued again as a copy; a pending one is simply tried again now.
 */
export async function resendMail(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const mail = await findMailForUpdate(tx, id);
    if (!mail) throw new AppError('notFound', adminMessages.mailNotFound);
    if (mail.status === 'sent') throw new AppError('conflict', adminMessages.mailNotResendable);
    let how: string;
    if (mail.template === 'account-approved') {
      const account = await accountByEmail(tx, mail.recipient, 'pendingActivation');
      if (!account) throw new AppError('conflict', 'The account is no longer waiting for activation.');
      await markSuperseded(tx, mail.id);
      await mailActivationCode(tx, ctx, { ...account, email: mail.recipient });
      how = 'new activation code';
    } else if (mail.template === 'password-reset-link') {
      const account = await accountByEmail(tx, mail.recipient, 'active');
      if (!account) throw new AppError('conflict', 'The account is no longer active.');
      await markSuperseded(tx, mail.id);
      await sendResetLink(tx, ctx, {
        account,
        actor,
        clientAddress: actor.clientAddress,
        action: 'password.reset-link',
      });
      how = 'new reset link';
    } else if (mail.status === 'pending') {
      await retryNow(tx, mail.id);
      how = 'retry now';
    } else if (!mail.text_body) {
      // A mail with a code loses its body once it ends; only activation and reset mails can be made anew.
      throw new AppError(
        'conflict',
        'This mail carried a code and its text is gone: ask the person to start again.',
      );
    } else {
      await enqueueMail(tx, {
        to: mail.recipient,
        template: mail.template,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
      });
      how = 'queued again';
    }
    await recordAudit(tx, {
      action: 'mail.resend',
      outcome: 'success',
      actor,
      target: { id: null, username: mail.recipient.slice(0, 255) },
      clientAddress: actor.clientAddress,
      details: { mailId: mail.id, template: mail.template, how },
    });
  });
}
