import { routes } from '@pra/contracts';
import { compose, linkPara, para, type MailContent, type MailSite } from '../mail-templates';

// The dormant-account and departure mails (GOVERNANCE.md §6.5, D1-D3 and T1-T4).

const sponsorLine = (sponsors: readonly string[]) =>
  sponsors.length === 0
    ? 'Your organization’s business relationship managers can re-enable it.'
    : `Your sponsors can re-enable it: ${sponsors.join('; ')}.`;

/** D1: 14 and 7 days (high tier: 7 and 1) before the inactivity disable. */
export function inactivityWarningMail(
  site: MailSite,
  p: { firstName: string; signInBy: string; sponsors: readonly string[] },
): MailContent {
  return compose(site, 'inactivity-warning', `Sign in by ${p.signInBy} to keep your PRA account`, [
    para(`Hello ${p.firstName},`),
    para(
      `You have not signed in to the PRA portal of ${site.hospitalName} for a long time. ` +
        `If you do not sign in by ${p.signInBy}, your account is disabled. Signing in once keeps it.`,
    ),
    para(
      p.sponsors.length === 0 ? 'Your sponsors: none on record.' : `Your sponsors: ${p.sponsors.join('; ')}.`,
    ),
    linkPara('Sign in:', `${site.publicUrl}${routes.home}`),
  ]);
}

/** D2: disabled for inactivity. */
export function inactivityDisabledMail(
  site: MailSite,
  p: { firstName: string; days: number; closesOn: string; sponsors: readonly string[] },
): MailContent {
  return compose(
    site,
    'account-disabled-inactive',
    `Your PRA account was disabled after ${p.days} days without sign-in`,
    [
      para(`Hello ${p.firstName},`),
      para(
        `Your PRA account at ${site.hospitalName} was disabled because nobody signed in to it for ${p.days} days. ` +
          `${sponsorLine(p.sponsors)} Unless it is re-enabled, it is closed on ${p.closesOn}.`,
      ),
    ],
  );
}

/** D3: closed 30 days after an inactivity disable, or never activated. */
export function dormantClosedMail(
  site: MailSite,
  p: { firstName: string; neverActivated: boolean },
): MailContent {
  return compose(site, 'account-closed', 'Your PRA account has been closed', [
    para(`Hello ${p.firstName},`),
    para(
      p.neverActivated
        ? `Your PRA account at ${site.hospitalName} was not activated within 30 days and has been closed. ` +
            'Your business relationship manager can register you again.'
        : `Your PRA account at ${site.hospitalName} stayed disabled for 30 days and has been closed. ` +
            'To work with the hospital again, register again.',
    ),
  ]);
}

/** T1: the successor. */
export function successorMail(
  site: MailSite,
  p: {
    organization: string;
    from: string;
    pendingApprovals: number;
    openReviewItems: number;
    extensionRequests: number;
    vendors: number;
  },
): MailContent {
  return compose(
    site,
    'brm-transfer',
    `You are now responsible for ${p.organization} at ${site.hospitalName}`,
    [
      para(
        `The responsibilities of ${p.from} for ${p.organization} are now yours: ${p.pendingApprovals} pending approvals, ` +
          `${p.openReviewItems} open review items, ${p.extensionRequests} extension requests, and ${p.vendors} vendors whose sponsor you now are.`,
      ),
      linkPara('Pending approvals:', `${site.publicUrl}${routes.pendingApprovals}`),
    ],
  );
}

/** T2: a vendor whose sponsor changed. */
export function newSponsorMail(
  site: MailSite,
  p: { firstName: string; organization: string; sponsor: string; sponsorEmail: string },
): MailContent {
  return compose(site, 'sponsor-change', `Your sponsor for ${p.organization} is now ${p.sponsor}`, [
    para(`Hello ${p.firstName},`),
    para(
      `Your sponsor for your access to ${p.organization} at ${site.hospitalName} is now ${p.sponsor} (${p.sponsorEmail}).`,
    ),
    linkPara('Your sponsors are listed on your profile:', `${site.publicUrl}${routes.profile}`),
  ]);
}

/** T3: 14 and 3 days before a BRM leaves with nothing transferred. */
export function leavingReminderMail(site: MailSite, p: { brm: string; leavingOn: string }): MailContent {
  return compose(
    site,
    'brm-leaving',
    `${p.brm} leaves on ${p.leavingOn}: responsibilities not yet transferred`,
    [
      para(
        `${p.brm} leaves ${site.hospitalName} on ${p.leavingOn} and their responsibilities have not been transferred. ` +
          'Run Transfer Responsibilities on the People page; otherwise the portal transfers them to the default successors on that date.',
      ),
    ],
  );
}

/** The automatic transfer's result, to InfoSec. */
export function automaticTransferMail(
  site: MailSite,
  p: { brm: string; lines: readonly string[] },
): MailContent {
  return compose(site, 'brm-transfer-automatic', `Responsibilities of ${p.brm} transferred automatically`, [
    para(
      `${p.brm} left on their leaving date with their responsibilities not transferred; the portal moved them:`,
    ),
    para(p.lines.join('\n')),
  ]);
}

/** T4: a BRM holding pending work who has not signed in for 60 days. */
export function inactiveBrmMail(site: MailSite, p: { brm: string; pending: number }): MailContent {
  return compose(
    site,
    'brm-inactive',
    `${p.brm} has ${p.pending} pending items and has not signed in for 60 days`,
    [
      para(
        `${p.brm} has ${p.pending} pending items at ${site.hospitalName} and has not signed in for 60 days. ` +
          'Consider a delegation or Transfer Responsibilities.',
      ),
    ],
  );
}
