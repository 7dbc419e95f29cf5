import type { Tx } from '../platform/db';
import { insertMail } from '../store/outbox';
import type { MailContent } from './mail-templates';

/**
 * Queues a mail in the caller's transaction: it leaves only if the change that caused it
 * commits, and the outbox worker delivers it later (never inside the request).
 */
export async function enqueueMail(tx: Tx, mail: MailContent & { to: string }): Promise<void> {
  await insertMail(tx, {
    recipient: mail.to.replace(/[\r\n]/g, ''),
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
    template: mail.template,
  });
}
