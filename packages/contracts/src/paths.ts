/** Every API path in one table, used by the server's routes and the web client alike. */
export const api = {
  csrf: '/api/csrf',
  isAuthenticated: '/api/saml/is-authenticated',
  login: '/api/saml/login/standard',
  logout: '/api/saml/logout',
  /** The IdP posts its SAML response here (a browser form post). */
  samlAcs: '/api/saml/acs',
  /** The service provider's SAML metadata (XML). */
  samlMetadata: '/api/saml/metadata',
  /** Single logout (HTTP-Redirect binding): the IdP's LogoutRequest, or its LogoutResponse to ours. */
  samlSingleLogout: '/api/saml/slo',
  /** This API's OpenAPI description. */
  openapi: '/api/openapi.json',
  user: '/api/user',
  extendSession: '/api/user/extend-session',
  clientLog: '/api/client-log',
  systemMessage: '/api/system/message',
  serviceCheck: '/api/service_check',
  pendingApprovals: '/api/brm/pending-approvals',
  approveOrDeny: '/api/brm/pending-approvals/approve-or-deny',
  emailInUse: '/api/user/new/email-in-use',
  registrationSubmit: '/api/user/new/submit',
  /** Whether registrations are taken now (not during account-management maintenance). */
  registrationAvailability: '/api/user/new/availability',
  orgsByDomain: '/api/orgs/email-domain',
  activationDecode: '/api/user/activate/decode',
  activate: '/api/user/activate/activate-with-password',
  passwordRequirements: '/api/user/auth/password-requirements',
  managedUsers: '/api/brm/users',
  enableOrDisableUser: '/api/brm/users/enable-or-disable',
  sendOtpEmail: '/api/brm/users/send-otp-email',
  resetActivationCode: '/api/brm/users/reset-activation-code',
  /** Reset Sign-in Methods (GOVERNANCE.md §7.3, admins): removes every second factor. */
  resetSignInMethods: '/api/brm/users/reset-sign-in-methods',
  terminateVendors: '/api/brm/terminate-vendors',
  /** Terminate Vendors as a background job the page follows (an addition to the spec). */
  terminateJobs: '/api/brm/terminate-vendors/jobs',
  terminateJob: '/api/brm/terminate-vendors/jobs/:id',
  terminateJobCancel: '/api/brm/terminate-vendors/jobs/:id/cancel',
  /** The example Terminate Vendors file (a static file of the web app). */
  terminateExample: '/example.csv',
  reauthenticate: '/api/user/auth',
  changePassword: '/api/user/auth/change-password',
  currentAccess: '/api/vendor/access/current',
  pendingAccess: '/api/vendor/access/pending',
  availableRoles: '/api/vendor/roles',
  requestAccess: '/api/vendor/access/request',
  removeAccess: '/api/vendor/access/current/cancel',
  cancelPendingAccess: '/api/vendor/access/pending/cancel',
  /** Time-limited access (GOVERNANCE.md §3.7): a vendor asks for an extension; a BRM sets an end date. */
  extendAccess: '/api/vendor/access/extend',
  setAccessEnd: '/api/brm/users/set-access-end',
  /** Emergency access and vendor-reported departures (GOVERNANCE.md §10). */
  emergencyAccess: '/api/brm/users/emergency-access',
  reportDeparture: '/api/vendor/departures',
  forgotUserIdSearch: '/api/user/forgot-user-id/search',
  forgotIdentify: '/api/user/forgot-password/identify',
  forgotIdentifyByCode: '/api/user/forgot-password/identify-by-code',
  forgotPingPush: '/api/user/forgot-password/ping-push',
  forgotVerifyOtp: '/api/user/forgot-password/verify-otp',
  forgotSendResetEmail: '/api/user/forgot-password/send-reset-email',
  forgotSetPassword: '/api/user/forgot-password/set-password',
  /** The signed-in account pairs a phone as its authenticator (answers the QR code's link). */
  authenticatorPair: '/api/user/authenticator/pair',
  /** Confirms the owner (password, and a passcode when a factor exists) before a factor change. */
  authenticatorConfirm: '/api/user/authenticator/confirm',
  /** The signed-in account's paired phones. */
  authenticators: '/api/user/authenticators',
  /** Unpairs one of the signed-in account's phones. */
  authenticatorRemove: '/api/user/authenticator/remove',
  /** The paired phone: its pending pushes and current passcode (device key in the body). */
  authenticatorStatus: '/api/authenticator/status',
  authenticatorAnswer: '/api/authenticator/answer',
  /** The Acceptable Use Policy to accept (GOVERNANCE.md §8): the newest version and the vendor's standing. */
  myAup: '/api/vendor/aup',
  acceptAup: '/api/vendor/aup/accept',
} as const;

/** The browser routes of the spec's route table. */
export const routes = {
  root: '/',
  home: '/home',
  welcome: '/welcome',
  newUser: '/new-user',
  activateAccount: '/activate-account',
  forgotUserId: '/forgot-user-id',
  forgotPassword: '/forgot-password',
  authenticator: '/authenticator',
  authFailure: '/auth-failure',
  statusCheck: '/status_check',
  fakeSp: '/fakesp',
  profile: '/vendor/profile',
  requestAccess: '/vendor/request-access',
  pendingApprovals: '/brm/pending-approvals',
  manageUsers: '/brm/manage-users',
  terminateVendors: '/brm/terminate-vendors',
  devMailbox: '/dev/mailbox',
  accessReviews: '/brm/access-reviews',
  confirmAccess: '/vendor/confirm-access',
  /** The Acceptable Use Policy to read and accept (GOVERNANCE.md §8.2). */
  attest: '/attest',
} as const;

/**
 * The SAML login URL that returns to `next` (a same-origin path) after sign-in; `base` is the
 * login endpoint, e.g. the current-user record's `loginUrl`.
 */
export function loginUrl(next: string, base: string = api.login): string {
  return `${base}${base.includes('?') ? '&' : '?'}next=${encodeURIComponent(next)}`;
}

/** The admin API's paths (admins only). */
export const adminApi = {
  organizations: '/api/admin/organizations',
  organization: '/api/admin/organizations/:id',
  organizationDomains: '/api/admin/organizations/:id/domains',
  organizationDomain: '/api/admin/organizations/:id/domains/:domain',
  people: '/api/admin/people',
  person: '/api/admin/people/:id',
  systemMessage: '/api/admin/system-message',
  maintenance: '/api/admin/maintenance',
  mail: '/api/admin/mail',
  mailResend: '/api/admin/mail/:id/resend',
  directory: '/api/admin/directory',
  directoryRetry: '/api/admin/directory/:id/retry',
  audit: '/api/admin/audit',
  auditExport: '/api/admin/audit/export.csv',
  serviceTokens: '/api/admin/service-tokens',
  serviceTokenRevoke: '/api/admin/service-tokens/:id/revoke',
  /** Governance (GOVERNANCE.md §2.3, §3.2): the tier policies and the Access ending report. */
  governancePolicies: '/api/admin/governance/policies',
  reportEnding: '/api/admin/reports/ending',
  reportEndingCsv: '/api/admin/reports/ending.csv',
  /** Per organization, the share of vendors who sign in with a security key or passkey (§7.1). */
  reportSignInStrength: '/api/admin/reports/sign-in-strength',
  /** The Acceptable Use Policy (GOVERNANCE.md §8): versions, who has not accepted, the auditors' report. */
  aupVersions: '/api/admin/aup/versions',
  aupNotAccepted: '/api/admin/aup/not-accepted',
  aupNotAcceptedCsv: '/api/admin/aup/not-accepted.csv',
  reportAup: '/api/admin/reports/aup',
  reportAupCsv: '/api/admin/reports/aup.csv',
  /** Reports for auditors (GOVERNANCE.md §9.2): each a paged list and its CSV. */
  reportSignInStrengthCsv: '/api/admin/reports/sign-in-strength.csv',
  reportVendorAccess: '/api/admin/reports/vendor-access',
  reportVendorAccessCsv: '/api/admin/reports/vendor-access.csv',
  reportDormant: '/api/admin/reports/dormant',
  reportDormantCsv: '/api/admin/reports/dormant.csv',
  reportSponsorshipCsv: '/api/admin/reports/sponsorship.csv',
  /** Review Evidence (§9.3): the campaigns, each with evidence.csv and evidence.json. */
  reportReviewEvidence: '/api/admin/reports/review-evidence',
  /** The organizations the reports filter by. */
  reportOrganizations: '/api/admin/reports/organizations',
} as const;

/** The Administration screens (admins only). */
export const adminRoutes = {
  root: '/admin',
  organizations: '/admin/organizations',
  people: '/admin/people',
  systemMessage: '/admin/system-message',
  maintenance: '/admin/maintenance',
  mail: '/admin/mail',
  directory: '/admin/directory',
  audit: '/admin/audit',
  serviceTokens: '/admin/service-tokens',
  governance: '/admin/governance',
  reportEnding: '/admin/reports/ending',
  reportSponsorship: '/admin/reports/sponsorship',
  /** Administration → Reports (GOVERNANCE.md §9.2): admins and auditors. */
  reports: '/admin/reports',
  reportVendorAccess: '/admin/reports/vendor-access',
  reportDormant: '/admin/reports/dormant',
  reportSignInStrength: '/admin/reports/sign-in-strength',
  reportReviewEvidence: '/admin/reports/review-evidence',
  /** Built by other changes (§8, §9.4); the Reports hub links them. */
  reportAcceptableUse: '/admin/reports/acceptable-use',
  /** The weekly activity review (GOVERNANCE.md §9.2); `?week=YYYY-MM-DD` opens one week's digest. */
  reportActivity: '/admin/reports/activity',
  reviews: '/admin/reviews',
  aup: '/admin/aup',
} as const;

/** The weekly activity review's calls (GOVERNANCE.md §9.4); `:week` is the week's Monday. */
export const activityReviewApi = {
  list: '/api/admin/reports/activity',
  week: '/api/admin/reports/activity/:week',
  signOff: '/api/admin/reports/activity/:week/sign-off',
} as const;

/** Approval routing's paths (GOVERNANCE.md §5.7). */
export const routingApi = {
  /** The signed-in BRM's Away and Backup delegation. */
  delegation: '/api/brm/delegation',
  /** An admin makes a BRM primary or backup for an organization. */
  assignmentKind: '/api/admin/people/:id/organizations/:orgId',
  /** Primary and backup BRMs per organization, and organizations without a reachable approver. */
  overview: '/api/admin/approval-routing',
} as const;

/** Approval routing's pages. */
export const routingRoutes = {
  away: '/brm/away',
} as const;

/**
 * Access reviews (GOVERNANCE.md §4.7). `:id` is a cycle's id for the preview and a campaign's for
 * the others (§4.7's `:cycleId` and `:campaignId`: one position of the path, so one name).
 */
export const reviewsApi = {
  brm: '/api/brm/access-reviews',
  decide: '/api/brm/access-reviews/decide',
  confirmation: '/api/vendor/access-confirmation',
  admin: '/api/admin/reviews',
  preview: '/api/admin/reviews/:id/preview',
  remind: '/api/admin/reviews/:id/remind',
  close: '/api/admin/reviews/:id/close',
  cancel: '/api/admin/reviews/:id/cancel',
  evidenceCsv: '/api/admin/reviews/:id/evidence.csv',
  evidenceJson: '/api/admin/reviews/:id/evidence.json',
} as const;

/** Profile → Sign-in methods: the signed-in vendor's security keys and passkeys (WebAuthn). */
export const securityKeyPaths = {
  /** GET the list; POST a new key (the browser's attestation and a nickname). */
  keys: '/api/user/security-keys',
  /** POST: options for navigator.credentials.create (needs a fresh re-authentication). */
  registrationOptions: '/api/user/security-keys/registration-options',
  /** POST: options for navigator.credentials.get, to confirm with an existing key. */
  assertionOptions: '/api/user/security-keys/assertion-options',
  /** POST: the browser's assertion; a pass lets this session add a key for 5 minutes. */
  assertion: '/api/user/security-keys/assertion',
  /** PATCH (rename) or DELETE one key. */
  key: '/api/user/security-key/:id',
} as const;

/** The paths of BRM departure and sponsors (GOVERNANCE.md §6); departure.ts re-exports them. */
export const departureApi = {
  /** An admin sets or clears a person's leaving date. */
  leaving: '/api/admin/people/:id/leaving',
  /** Transfer Responsibilities: `dryRun: true` answers what would move. */
  transfer: '/api/admin/people/:id/transfer',
  /** The sponsorship report: grants with no sponsor or one who no longer manages the organization. */
  sponsorship: '/api/admin/sponsorship',
  /** Bulk "Assign sponsor". */
  sponsors: '/api/admin/sponsors',
  /** The vendor's own sponsors (Profile). */
  mySponsors: '/api/profile/sponsors',
} as const;
