// Links outside the single-page app. The deployment's own values (hospital name, support mailbox,
// credential vault) come from meta tags the server fills in from its configuration; the static
// pages live in public/docs.

/** A deployment setting from the page's meta tags, or the fallback when the page has none. */
function setting(name: string, fallback: string): string {
  const value =
    typeof document === 'undefined'
      ? ''
      : document.querySelector(`meta[name="${name}"]`)?.getAttribute('content');
  return value ? value : fallback;
}

/** Product name used in titles and the footer. */
export const PORTAL_NAME = 'PRA Portal';
/** The organization that runs the portal, for the copyright line. */
export const HOSPITAL_NAME = setting('pra-hospital-name', 'Hospital Information Security');

export const siteLinks = {
  disclaimer: '/docs/disclaimer.html',
  privacyNotice: '/docs/privacy-notice.html',
  websitePrivacyPolicy: '/docs/website-privacy-policy.html',
  userGuides: '/docs/user-guides.html',
  /** The credential-vault tool vendors use for their privileged sessions. */
  credentialVault: setting('pra-credential-vault-url', 'https://vault.example.org/'),
  /** The PRA support team's mailbox (Contact, Contact Us). */
  supportMail: `mailto:${setting('pra-support-email', 'pra-support@example.org')}`,
  /** Information Security's mailbox (BRMs' "Ask InfoSec to reset"; the support mailbox when unset). */
  infosecEmail: setting('pra-infosec-email', 'pra-support@example.org'),
} as const;
