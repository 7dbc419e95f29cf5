import { routes } from '@pra/contracts';
import { compose, linkPara, para, type MailContent, type MailSite } from '../mail-templates';

// Emergency access and reported departures (GOVERNANCE.md §10): mails to the vendor, the
// organization's BRMs and InfoSec at an emergency grant and at its end, the acknowledgement
// reminders, and the urgent mails of a reported departure. Subjects begin with the action (§2.6).

const approvalsLink = (site: MailSite) => `${site.publicUrl}${routes.pendingApprovals}`;

/** The time an emergency grant ends, as mails show it in the hospital's zone. */
export function mailTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone }).format(at);
}

interface Emergency {
  vendor: string;
  organization: string;
  ticket: string;
  endsAt: string;
}

/** To the vendor: emergency access granted. */
export function emergencyGrantedVendorMail(
  site: MailSite,
  p: Emergency & { firstName: string },
): MailContent {
  return compose(
    site,
    'emergency-granted-vendor',
    `Emergency access to ${p.organization} until ${p.endsAt}`,
    [
      para(`Hello ${p.firstName},`),
      para(
        `You have been given emergency access to ${p.organization} at ${site.hospitalName} (ticket ${p.ticket}). ` +
          `It ends by itself on ${p.endsAt}.`,
      ),
    ],
  );
}

/** To the organization's BRMs: acknowledge the emergency grant (or remove it) by a date. */
export function emergencyGrantedBrmMail(
  site: MailSite,
  p: Emergency & { acknowledgeBy: string },
): MailContent {
  return compose(
    site,
    'emergency-granted-brm',
    `Action required: acknowledge emergency access for ${p.vendor} (${p.organization}) by ${p.acknowledgeBy}`,
    [
      para(
        `Information Security gave ${p.vendor} emergency access to ${p.organization} (ticket ${p.ticket}) until ${p.endsAt}. ` +
          `Acknowledge it or remove it now by ${p.acknowledgeBy}.`,
      ),
      linkPara('Open Approvals:', approvalsLink(site)),
    ],
  );
}

/** To InfoSec: an emergency grant was made. */
export function emergencyGrantedInfosecMail(
  site: MailSite,
  p: Emergency & { grantedBy: string },
): MailContent {
  return compose(
    site,
    'emergency-granted-infosec',
    `Emergency access granted to ${p.vendor} for ${p.organization}`,
    [
      para(
        `${p.grantedBy} gave ${p.vendor} emergency access to ${p.organization} (ticket ${p.ticket}). It ends by itself on ${p.endsAt}.`,
      ),
    ],
  );
}

/** To the vendor, the BRMs and InfoSec: the emergency grant ended. */
export function emergencyEndedMail(
  site: MailSite,
  p: Emergency & { how: 'expired' | 'removed'; by: string | null },
): MailContent {
  const how =
    p.how === 'expired'
      ? `ended by itself on ${p.endsAt}`
      : `was removed${p.by ? ` by ${p.by}` : ''} before its end`;
  return compose(site, 'emergency-ended', `Emergency access of ${p.vendor} to ${p.organization} has ended`, [
    para(
      `The emergency access of ${p.vendor} to ${p.organization} at ${site.hospitalName} (ticket ${p.ticket}) ${how}.`,
    ),
  ]);
}

/** To the BRMs (and, once overdue, InfoSec): the emergency grant still awaits acknowledgement. */
export function emergencyReminderMail(
  site: MailSite,
  p: { vendor: string; organization: string; ticket: string; acknowledgeBy: string; overdue: boolean },
): MailContent {
  const subject = p.overdue
    ? `Overdue: emergency access for ${p.vendor} (${p.organization}) was not acknowledged by ${p.acknowledgeBy}`
    : `Reminder: acknowledge emergency access for ${p.vendor} (${p.organization}) by ${p.acknowledgeBy}`;
  return compose(site, p.overdue ? 'emergency-overdue' : 'emergency-reminder', subject, [
    para(
      `The emergency access given to ${p.vendor} for ${p.organization} (ticket ${p.ticket}) has not been acknowledged` +
        (p.overdue ? ` by its deadline, ${p.acknowledgeBy}.` : ` yet. Acknowledge it by ${p.acknowledgeBy}.`),
    ),
    linkPara('Open Approvals:', approvalsLink(site)),
  ]);
}

interface Departure {
  vendor: string;
  organization: string;
  reporter: string;
  leftOn: string;
  decideBy: string;
}

/** To the organization's BRMs and the sponsor: decide a reported departure (urgent, §2.6). */
export function departureReportedMail(site: MailSite, p: Departure & { suspended: boolean }): MailContent {
  return compose(
    site,
    'departure-reported',
    `Action required: confirm or dismiss the reported departure of ${p.vendor} (${p.organization}) by ${p.decideBy}`,
    [
      para(`${p.reporter} reported that ${p.vendor} left ${p.organization} on ${p.leftOn}.`),
      para(
        (p.suspended ? `The account of ${p.vendor} is suspended until you decide. ` : '') +
          `Confirm the departure (their access to ${p.organization} is removed) or dismiss the report by ${p.decideBy}; ` +
          'after that it goes to the Information Security team.',
      ),
      linkPara('Open Approvals:', approvalsLink(site)),
    ],
  );
}

/** To InfoSec: a reported departure nobody decided in time. */
export function departureForwardedMail(site: MailSite, p: Departure): MailContent {
  return compose(
    site,
    'departure-forwarded',
    `Action required: the reported departure of ${p.vendor} (${p.organization}) was not decided by ${p.decideBy}`,
    [
      para(
        `${p.reporter} reported that ${p.vendor} left ${p.organization} on ${p.leftOn}; the organization's BRMs did not decide by ${p.decideBy}.`,
      ),
      linkPara('Confirm or dismiss it in Approvals:', approvalsLink(site)),
    ],
  );
}
