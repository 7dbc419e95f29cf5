import { routes } from '@pra/contracts';
import { compose, linkPara, para, type MailContent, type MailSite } from '../mail-templates';

// The Acceptable Use Policy mails (GOVERNANCE.md §8.3): U1 reminders and U2 at publish; U3 is a
// section of the BRMs' daily digest (expiry-mails.ts).

/** U1: 30 and 7 days before the review is due. */
export function aupReminderMail(site: MailSite, p: { firstName: string; dueOn: string }): MailContent {
  return compose(site, 'aup-reminder', `Please review the Acceptable Use Policy by ${p.dueOn}`, [
    para(`Hello ${p.firstName},`),
    para(
      `Once a year, and whenever it changes, every vendor using the PRA portal of ${site.hospitalName} ` +
        `reads and accepts its Acceptable Use Policy. Please review it by ${p.dueOn}; ` +
        'after a short grace period the portal asks you to accept it before anything else.',
    ),
    linkPara('Review the policy:', `${site.publicUrl}${routes.attest}`),
  ]);
}

/** U2: a new version was published (to every vendor asked to accept it). */
export function aupPublishedMail(
  site: MailSite,
  p: { firstName: string; version: number; effectiveOn: string },
): MailContent {
  return compose(site, 'aup-published', `A new Acceptable Use Policy takes effect on ${p.effectiveOn}`, [
    para(`Hello ${p.firstName},`),
    para(
      `${site.hospitalName} has published version ${p.version} of the PRA Acceptable Use Policy. ` +
        `It takes effect on ${p.effectiveOn}. Please read and accept it the next time you sign in.`,
    ),
    linkPara('Review the policy:', `${site.publicUrl}${routes.attest}`),
  ]);
}
