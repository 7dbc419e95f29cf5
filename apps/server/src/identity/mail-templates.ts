import { loginUrl, routes } from '@pra/contracts';
import type { AppContext } from '../platform/app-context';
import { html, type Html } from '../platform/html';

/** A rendered mail, ready for the outbox. */
export interface MailContent {
  template: string;
  subject: string;
  text: string;
  html: string;
}

/** What every mail says about where it comes from. */
export interface MailSite {
  hospitalName: string;
  publicUrl: string;
}

/** Hospital name and portal address, as every mail shows them. */
export function mailSite(ctx: Pick<AppContext, 'config'>): MailSite {
  return { hospitalName: ctx.config.HOSPITAL_NAME, publicUrl: ctx.config.publicUrl };
}

/** Subjects go into a header: no CR/LF or other control characters, whatever a name contains. */
export function headerSafe(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200)
  );
}

/** A mail from its paragraphs, with the portal's signature and link (text and HTML alike). */
export function compose(
  site: MailSite,
  template: string,
  subject: string,
  paragraphs: { text: string; html: Html }[],
): MailContent {
  const signature = `${site.hospitalName} PRA Portal — ${site.publicUrl}`;
  const text = [...paragraphs.map((p) => p.text), '', signature].join('\n\n').replace(/\n{3,}/g, '\n\n');
  const body = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${headerSafe(subject)}</title>
      </head>
      <body>
        ${paragraphs.map((p) => html`<p>${p.html}</p>`)}
        <p><a href="${site.publicUrl}">${site.hospitalName} PRA Portal</a></p>
      </body>
    </html>`;
  return { template, subject: headerSafe(subject), text: `${text}\n`, html: body.value };
}

/** A paragraph that reads the same in both bodies. */
export const para = (text: string) => ({ text, html: html`${text}` });
/** A paragraph ending with a link. */
export const linkPara = (lead: string, url: string) => ({
  text: `${lead}\n${url}`,
  html: html`${lead}<br /><a href="${url}">${url}</a>`,
});

/** Who decided for whom: a delegate (Away and Backup) on behalf of a BRM. */
export interface OnBehalf {
  delegate: string;
  delegator: string;
}

/** " by {delegate} on behalf of {BRM}" after an outcome, or nothing. */
export const onBehalfText = (by: OnBehalf | null | undefined) =>
  by ? ` by ${by.delegate} on behalf of ${by.delegator}` : '';

/** To a self-registrant: the registration arrived and waits for a decision. */
export function registrationReceivedMail(
  site: MailSite,
  p: { firstName: string; organization: string },
): MailContent {
  return compose(site, 'registration-received', `${site.hospitalName} PRA Portal: registration received`, [
    para(`Hello ${p.firstName},`),
    para(
      `We received your registration for privileged remote access on behalf of ${p.organization}. ` +
        `A business relationship manager will review it; you will get an email with the decision.`,
    ),
  ]);
}

/** To each BRM of the organization: a registration awaits their decision. */
export function awaitingDecisionMail(
  site: MailSite,
  p: { firstName: string; lastName: string; email: string; organization: string },
): MailContent {
  return compose(
    site,
    'registration-awaiting-decision',
    `${site.hospitalName} PRA Portal: new user registration for ${p.organization} awaits your decision`,
    [
      para(
        `${p.firstName} ${p.lastName} (${p.email}) registered for privileged remote access on behalf of ${p.organization}.`,
      ),
      linkPara('Please approve or reject the request:', `${site.publicUrl}${routes.pendingApprovals}`),
    ],
  );
}

/** To the new vendor: the account exists; the link and code activate it. */
export function accountApprovedMail(
  site: MailSite,
  p: { firstName: string; username: string; code: string; expiresInDays: number; by?: OnBehalf | null },
): MailContent {
  const link = `${site.publicUrl}${routes.activateAccount}?code=${encodeURIComponent(p.code)}`;
  return compose(site, 'account-approved', `${site.hospitalName} PRA Portal: activate your account`, [
    para(`Hello ${p.firstName},`),
    para(`Your registration was approved${onBehalfText(p.by)}. Your username is ${p.username}.`),
    linkPara('Activate your account and set your password here:', link),
    para(
      `Or open ${site.publicUrl}${routes.activateAccount} and enter the activation code ${p.code}. ` +
        `The code can be used once and expires in ${p.expiresInDays} days.`,
    ),
  ]);
}

/** To a registrant whose registration was rejected, with the BRM's justification. */
export function registrationDeniedMail(
  site: MailSite,
  p: { firstName: string; organization: string; justification: string; by?: OnBehalf | null },
): MailContent {
  return compose(site, 'registration-denied', `${site.hospitalName} PRA Portal: registration not approved`, [
    para(`Hello ${p.firstName},`),
    para(
      `Your registration for privileged remote access on behalf of ${p.organization} was not approved` +
        (p.by ? `: it was rejected${onBehalfText(p.by)}.` : '.'),
    ),
    para(`Reason: ${p.justification}`),
  ]);
}

/** To the account owner once the account is active. */
export function accountActivatedMail(
  site: MailSite,
  p: { firstName: string; username: string },
): MailContent {
  return compose(site, 'account-activated', `${site.hospitalName} PRA Portal: your account is active`, [
    para(`Hello ${p.firstName},`),
    para(
      `Your account ${p.username} is now active. When you sign in for the first time you will be asked ` +
        `to set up multi-factor authentication.`,
    ),
    linkPara('Sign in:', `${site.publicUrl}${loginUrl(routes.welcome)}`),
    para('If you did not activate this account, contact the PRA support team at once.'),
  ]);
}

/** To the account owner when failed sign-ins lock the account (at most once an hour). */
export function signInLockedMail(
  site: MailSite,
  p: { firstName: string; username: string; minutes: number },
): MailContent {
  return compose(
    site,
    'signin-locked',
    `${site.hospitalName} PRA Portal: sign-in locked after failed attempts`,
    [
      para(`Hello ${p.firstName},`),
      para(
        `Several sign-ins to your account ${p.username} failed in a row, so sign-in is locked for ` +
          `${p.minutes} minutes. You can sign in again after that.`,
      ),
      para(
        'If these attempts were not yours, someone may be guessing your password: change it after ' +
          'signing in, and tell the PRA support team.',
      ),
    ],
  );
}

/** To the account owner after a Forgot User ID search found the account: the username, and who asked. */
export function userIdReminderMail(site: MailSite, p: { firstName: string; username: string }): MailContent {
  return compose(site, 'user-id-reminder', `${site.hospitalName} PRA Portal: your user ID`, [
    para(`Hello ${p.firstName},`),
    para(
      `Someone looked up the user ID of this email address on the Forgot User ID page. Your user ID is ${p.username}.`,
    ),
    linkPara('Sign in:', `${site.publicUrl}${loginUrl(routes.welcome)}`),
    para('If this was not you, no action is needed; tell the PRA support team if it happens again.'),
  ]);
}

/** To the account owner whenever its password changes, by the owner or through a reset. */
export function passwordChangedMail(
  site: MailSite,
  p: { firstName: string; username: string; reset: boolean },
): MailContent {
  return compose(site, 'password-changed', `${site.hospitalName} PRA Portal: your password was changed`, [
    para(`Hello ${p.firstName},`),
    para(
      p.reset
        ? `The password of your account ${p.username} was reset. Every session of the account has been signed out.`
        : `The password of your account ${p.username} was changed. Your other sessions have been signed out.`,
    ),
    para('If you did not make this change, contact the PRA support team at once.'),
  ]);
}

/** To the account owner at once whenever a second factor is added to or removed from the account. */
export function factorChangedMail(
  site: MailSite,
  p: {
    firstName: string;
    username: string;
    change: 'added' | 'removed';
    /** What the factor is, as people call it: "phone", "authenticator app". */
    kind: string;
    nickname: string;
  },
): MailContent {
  const what = `${p.kind} "${p.nickname}"`;
  const added = p.change === 'added';
  return compose(
    site,
    added ? 'factor-added' : 'factor-removed',
    added
      ? `${site.hospitalName} PRA Portal: new ${p.kind} added to your account`
      : `${site.hospitalName} PRA Portal: ${p.kind} removed from your account`,
    [
      para(`Hello ${p.firstName},`),
      para(
        added
          ? `The ${what} was added to your account ${p.username} as a second factor: it can approve ` +
              'your sign-ins. For the next 24 hours it cannot approve a password reset by itself.'
          : `The ${what} was removed from your account ${p.username}: it can no longer approve your ` +
              'sign-ins or password resets.',
      ),
      linkPara(
        added
          ? 'If this wasn’t you, someone else can use your account: sign in at once, remove the ' +
              `${p.kind} under Manage Profile, change your password, and tell the PRA support team. Sign in:`
          : 'If this wasn’t you, sign in at once, change your password, and tell the PRA support ' +
              'team. Sign in:',
        `${site.publicUrl}${loginUrl(routes.profile)}`,
      ),
    ],
  );
}

/**
 * To the account owner: a single-use link that starts the Forgot Password flow with a code. The
 * code travels only inside the link: the Forgot Password page has no field to type it into.
 */
export function passwordResetLinkMail(
  site: MailSite,
  p: { firstName: string; username: string; code: string; minutes: number },
): MailContent {
  const link = `${site.publicUrl}${routes.forgotPassword}?code=${encodeURIComponent(p.code)}`;
  return compose(site, 'password-reset-link', `${site.hospitalName} PRA Portal: reset your password`, [
    para(`Hello ${p.firstName},`),
    para(`A password reset was requested for your account ${p.username}.`),
    linkPara(`Open this link within ${p.minutes} minutes to set a new password (it works once):`, link),
    para('If you did not ask for this, ignore this mail: your password stays as it is.'),
  ]);
}

/** To an organization's BRMs: a vendor asks to add or remove the organization's role. */
export function accessAwaitingDecisionMail(
  site: MailSite,
  p: {
    firstName: string;
    lastName: string;
    username: string;
    organization: string;
    type: string;
    justification: string;
  },
): MailContent {
  const link = `${site.publicUrl}${routes.pendingApprovals}`;
  return compose(
    site,
    'access-awaiting-decision',
    `${site.hospitalName} PRA Portal: ${p.type} request awaiting your decision`,
    [
      para(`${p.firstName} ${p.lastName} (${p.username}) asks: ${p.type} for ${p.organization}.`),
      para(`Justification: ${p.justification}`),
      linkPara('Approve or deny it on the Approvals page:', link),
    ],
  );
}

/** To the person who asked: a BRM approved or denied an Add Access or Remove Access request. */
export function accessDecidedMail(
  site: MailSite,
  p: {
    firstName: string;
    type: string;
    organization: string;
    approved: boolean;
    comment: string;
    by?: OnBehalf | null;
  },
): MailContent {
  const outcome = `${p.approved ? 'approved' : 'denied'}${onBehalfText(p.by)}`;
  return compose(site, 'access-decided', `${site.hospitalName} PRA Portal: ${p.type} request ${outcome}`, [
    para(`Hello ${p.firstName},`),
    para(`Your ${p.type} request for ${p.organization} was ${outcome}.`),
    ...(p.comment ? [para(`Comment: ${p.comment}`)] : []),
    linkPara('See your access on the Manage Access page:', `${site.publicUrl}${routes.requestAccess}`),
  ]);
}

/** To a vendor: a BRM or admin added or removed roles for them. */
export function accessChangedMail(
  site: MailSite,
  p: { firstName: string; added: string[]; removed: string[]; by: string; justification: string },
): MailContent {
  return compose(site, 'access-changed', `${site.hospitalName} PRA Portal: your access changed`, [
    para(`Hello ${p.firstName},`),
    ...(p.added.length > 0 ? [para(`${p.by} gave you access for: ${p.added.join(', ')}.`)] : []),
    ...(p.removed.length > 0 ? [para(`${p.by} removed your access for: ${p.removed.join(', ')}.`)] : []),
    para(`Justification: ${p.justification}`),
  ]);
}
