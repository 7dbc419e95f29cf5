/** Every API path in one table, used by the server's routes and the web client alike. */
export const api = {
  csrf: '/api/csrf',
  isAuthenticated: '/api/saml/is-authenticated',
  login: '/api/saml/login/standard',
  logout: '/api/saml/logout',
  user: '/api/user',
  extendSession: '/api/user/extend-session',
  clientLog: '/api/client-log',
  systemMessage: '/api/system/message',
  serviceCheck: '/api/service_check',
  pendingApprovals: '/api/brm/pending-approvals',
  approveOrDeny: '/api/brm/pending-approvals/approve-or-deny',
  emailInUse: '/api/user/new/email-in-use',
  registrationSubmit: '/api/user/new/submit',
  orgsByDomain: '/api/orgs/email-domain',
  activationDecode: '/api/user/activate/decode',
  activate: '/api/user/activate/activate-with-password',
  passwordRequirements: '/api/user/auth/password-requirements',
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
  authFailure: '/auth-failure',
  statusCheck: '/status_check',
  fakeSp: '/fakesp',
  profile: '/vendor/profile',
  requestAccess: '/vendor/request-access',
  pendingApprovals: '/brm/pending-approvals',
  manageUsers: '/brm/manage-users',
  terminateVendors: '/brm/terminate-vendors',
  devMailbox: '/dev/mailbox',
} as const;

/**
 * The SAML login URL that returns to `next` (a same-origin path) after sign-in; `base` is the
 * login endpoint, e.g. the current-user record's `loginUrl`.
 */
export function loginUrl(next: string, base: string = api.login): string {
  return `${base}${base.includes('?') ? '&' : '?'}next=${encodeURIComponent(next)}`;
}
