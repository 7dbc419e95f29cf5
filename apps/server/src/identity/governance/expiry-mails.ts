import { routes } from '@pra/contracts';
import { html } from '../../platform/html';
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

/** A paragraph with a list under its lead (text: "- " lines; HTML: a list). */
const listPara = (lead: string, items: readonly string[]) => ({
  text: `${lead}\n${items.map((item) => `- ${item}`).join('\n')}`,
  html: html`${lead}
    <ul>
      ${items.map((item) => html`<li>${item}</li>`)}
    </ul>`,
});

/** At most this many lines per section of the digest; the rest are counted ("and 12 more"). */
export const DIGEST_SECTION_LINES = 100;

const capped = (lines: string[]) =>
  lines.length > DIGEST_SECTION_LINES
    ? [
        ...lines.slice(0, DIGEST_SECTION_LINES),
        `and ${lines.length - DIGEST_SECTION_LINES} more (see Manage Users)`,
      ]
    : lines;

const endWords: Record<string, string> = {
  expired: 'ended on',
  removed: 'removed on',
  revoked: 'revoked in a review on',
  defaultRemoved: 'removed by a review default on',
  terminated: 'ended on',
  emergencyEnded: 'emergency access ended on',
};

/**
 * X3: the BRMs' daily digest (one a day per recipient, non-urgent): access ending in the next 14
 * days, access that ended since the last digest (yesterday, or since `since` after a gap),
 * accounts disabled because no access remains, and accounts disabled for inactivity.
 */
export function accessDigestMail(
  site: MailSite,
  p: {
    firstName: string;
    ending: { vendor: string; organization: string; endsOn: string; daysLeft: number }[];
    ended: { vendor: string; organization: string; endedOn: string; reason: string }[];
    disabled: { vendor: string; closesOn: string }[];
    /** Accounts disabled for inactivity (§6.5 D2); absent: none. */
    inactive?: { vendor: string; disabledOn: string; closesOn: string }[];
    /** The first day the "ended" section covers when it is not just yesterday. */
    since: string | null;
    /** U3 (GOVERNANCE.md §8.3): blocked vendors per organization; absent: none. */
    aupOverdue?: { organization: string; vendors: number }[];
  },
): MailContent {
  const left = (n: number) => (n === 0 ? 'today' : n === 1 ? '1 day left' : `${n} days left`);
  return compose(site, 'access-digest', 'Vendor access ending in your organizations', [
    para(`Hello ${p.firstName},`),
    ...(p.ending.length > 0
      ? [
          listPara(
            'Access ending in the next 14 days:',
            capped(
              p.ending.map(
                (r) => `${r.vendor} (${r.organization}): ends on ${r.endsOn} (${left(r.daysLeft)})`,
              ),
            ),
          ),
        ]
      : []),
    ...(p.ended.length > 0
      ? [
          listPara(
            p.since ? `Access that ended since ${p.since}:` : 'Access that ended yesterday:',
            capped(
              p.ended.map(
                (r) => `${r.vendor} (${r.organization}): ${endWords[r.reason] ?? 'ended on'} ${r.endedOn}`,
              ),
            ),
          ),
        ]
      : []),
    ...(p.disabled.length > 0
      ? [
          listPara(
            'Accounts disabled because no access remains (closed unless given access again):',
            capped(p.disabled.map((r) => `${r.vendor}: closes on ${r.closesOn}`)),
          ),
        ]
      : []),
    ...(p.inactive && p.inactive.length > 0
      ? [
          listPara(
            'Accounts disabled after too long without a sign-in (Enable User re-enables one; closed otherwise):',
            capped(
              p.inactive.map((r) => `${r.vendor}: disabled on ${r.disabledOn}, closes on ${r.closesOn}`),
            ),
          ),
        ]
      : []),
    ...(p.aupOverdue ?? []).map((r) =>
      para(
        (r.vendors === 1
          ? `1 vendor of ${r.organization} has not accepted the Acceptable Use Policy`
          : `${r.vendors} vendors of ${r.organization} have not accepted the Acceptable Use Policy`) +
          ' (they can use nothing but the policy page until they accept it).',
      ),
    ),
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
