import { routes } from '@pra/contracts';
import {
  compose,
  linkPara,
  onBehalfText,
  para,
  type MailContent,
  type MailSite,
  type OnBehalf,
} from '../mail-templates';

// The time-limited-access mails (GOVERNANCE.md §3.5, X1-X8): each names the hospital, the
// organization, the date in the hospital's time zone and one link; subjects begin with the action.

const accessLink = (site: MailSite) => `${site.publicUrl}${routes.requestAccess}`;

/** X1: 14, 7 and 1 days before the end. */
export function accessEndingMail(
  site: MailSite,
  p: { firstName: string; organization: string; endsOn: string; daysLeft: number },
): MailContent {
  const left = p.daysLeft === 1 ? '1 day' : `${p.daysLeft} days`;
  return compose(site, 'access-ending', `Your access to ${p.organization} ends on ${p.endsOn}`, [
    para(`Hello ${p.firstName},`),
    para(
      `Your privileged remote access to ${p.organization} at ${site.hospitalName} ends on ${p.endsOn} (${left} left). ` +
        'If you still need it, ask your sponsor for more time.',
    ),
    linkPara('Request extension on the Manage Access page:', accessLink(site)),
  ]);
}

/** X2: at the end. */
export function accessEndedMail(
  site: MailSite,
  p: { firstName: string; organization: string; endedOn: string },
) {
  return compose(site, 'access-ended', `Your access to ${p.organization} has ended`, [
    para(`Hello ${p.firstName},`),
    para(`Your privileged remote access to ${p.organization} at ${site.hospitalName} ended on ${p.endedOn}.`),
    linkPara('If you need it again, request access on the Manage Access page:', accessLink(site)),
  ]);
}

/** X7: the last grant ended; the account is disabled (recoverable for `closeInDays` days). */
export function accountDisabledNoAccessMail(
  site: MailSite,
  p: { firstName: string; closesOn: string },
): MailContent {
  return compose(
    site,
    'account-disabled-no-access',
    'Your PRA account has been disabled: no access remains',
    [
      para(`Hello ${p.firstName},`),
      para(
        `None of your access at ${site.hospitalName} remains, so your PRA account has been disabled. ` +
          `If a business relationship manager gives you access again before ${p.closesOn}, it is enabled again; ` +
          'otherwise it is closed on that date.',
      ),
    ],
  );
}

/** X8: 30 days after the disable. */
export function accountClosedMail(site: MailSite, p: { firstName: string }): MailContent {
  return compose(site, 'account-closed', 'Your PRA account has been closed', [
    para(`Hello ${p.firstName},`),
    para(
      `Your PRA account at ${site.hospitalName} had no access for 30 days and has been closed. ` +
        'To work with the hospital again, register again.',
    ),
  ]);
}

/** X3: the BRMs' daily digest. */
export function accessDigestMail(
  site: MailSite,
  p: {
    firstName: string;
    ending: { vendor: string; organization: string; endsOn: string }[];
    ended: { vendor: string; organization: string; endedOn: string }[];
  },
): MailContent {
  const lines = (rows: string[]) => rows.map((row) => `- ${row}`).join('\n');
  return compose(site, 'access-digest', 'Vendor access ending in your organizations', [
    para(`Hello ${p.firstName},`),
    ...(p.ending.length > 0
      ? [
          para(
            `Access ending in the next 14 days:\n${lines(p.ending.map((r) => `${r.vendor} (${r.organization}): ends on ${r.endsOn}`))}`,
          ),
        ]
      : []),
    ...(p.ended.length > 0
      ? [
          para(
            `Access that ended yesterday:\n${lines(p.ended.map((r) => `${r.vendor} (${r.organization}): ended on ${r.endedOn}`))}`,
          ),
        ]
      : []),
    linkPara('Manage your vendors on the Manage Users page:', `${site.publicUrl}${routes.manageUsers}`),
  ]);
}

/** X4: a vendor asked for an extension; to the organization's approvers. */
export function extensionRequestedMail(
  site: MailSite,
  p: {
    vendor: string;
    username: string;
    organization: string;
    currentEnd: string;
    until: string;
    justification: string;
  },
): MailContent {
  return compose(
    site,
    'extension-requested',
    `Action required: extension requested by ${p.vendor} for ${p.organization} until ${p.until}`,
    [
      para(
        `${p.vendor} (${p.username}) asks to keep privileged remote access to ${p.organization} at ${site.hospitalName} ` +
          `until ${p.until}; it ends on ${p.currentEnd} today.`,
      ),
      para(`Justification: ${p.justification}`),
      linkPara('Approve or deny it on the Approvals page:', `${site.publicUrl}${routes.pendingApprovals}`),
    ],
  );
}

/** X5: the extension was decided; to the vendor (a delegate's decision says on whose behalf). */
export function extensionDecidedMail(
  site: MailSite,
  p: { firstName: string; organization: string; until: string | null; comment: string; by: OnBehalf | null },
): MailContent {
  const subject =
    p.until === null
      ? `Your extension for ${p.organization} was denied`
      : `Your extension for ${p.organization} was approved until ${p.until}`;
  const decided = p.until === null ? 'denied' : `approved until ${p.until}`;
  return compose(site, 'extension-decided', subject, [
    para(`Hello ${p.firstName},`),
    para(
      `Your request to extend your access to ${p.organization} at ${site.hospitalName} was ${decided}${onBehalfText(p.by)}.`,
    ),
    ...(p.comment ? [para(`${p.until === null ? 'Reason' : 'Comment'}: ${p.comment}`)] : []),
    linkPara('See your access on the Manage Access page:', accessLink(site)),
  ]);
}

/** X6: a BRM changed the end date; to the vendor. */
export function accessEndChangedMail(
  site: MailSite,
  p: { firstName: string; organization: string; endsOn: string; by: string },
): MailContent {
  return compose(site, 'access-end-changed', `Your access to ${p.organization} now ends on ${p.endsOn}`, [
    para(`Hello ${p.firstName},`),
    para(
      `${p.by} changed the end of your privileged remote access to ${p.organization} at ${site.hospitalName}: ` +
        `it now ends on ${p.endsOn}.`,
    ),
    linkPara('See your access on the Manage Access page:', accessLink(site)),
  ]);
}
