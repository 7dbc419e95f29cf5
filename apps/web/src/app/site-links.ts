// Links outside the single-page app. Change them here for a deployment; the static pages live in public/docs.

/** Product name used in titles and the footer. */
export const PORTAL_NAME = 'PRA Portal';
/** The organization that runs the portal, for the copyright line. */
export const HOSPITAL_NAME = 'Hospital Information Security';

export const siteLinks = {
  disclaimer: '/docs/disclaimer.html',
  privacyNotice: '/docs/privacy-notice.html',
  websitePrivacyPolicy: '/docs/website-privacy-policy.html',
  userGuides: '/docs/user-guides.html',
  /** The credential-vault tool vendors use for their privileged sessions. */
  credentialVault: 'https://vault.example.org/',
  /** The PRA support team's mailbox (Contact, Contact Us). */
  supportMail: 'mailto:pra-support@example.org',
} as const;
