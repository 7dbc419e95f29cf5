/** Keys of the shared server-state queries, so invalidations name the same thing. */
export const queryKeys = {
  csrf: ['csrf'],
  authStatus: ['auth-status'],
  /** The server asked again, once the countdown says the session ended, whether it still holds it. */
  sessionStillHeld: ['session-still-held'],
  currentUser: ['current-user'],
  systemMessage: ['system-message'],
  /** The plain-text service check of /status_check. */
  serviceCheck: ['service-check'],
  /** Prefix of the approvals list and the welcome badge count: invalidating it refreshes both. */
  pendingApprovals: ['pending-approvals'],
  pendingApprovalsList: ['pending-approvals', 'list'],
  pendingApprovalsCount: ['pending-approvals', 'count'],
  /** The vendors of Manage Users. */
  managedUsers: ['managed-users'],
  passwordRequirements: (username: string) => ['password-requirements', username] as const,
  /** The organizations owning an email domain (lower-cased). */
  orgsByDomain: (domain: string) => ['orgs-by-domain', domain] as const,
  /** Whether registrations are taken now (not during maintenance). */
  registrationAvailability: ['registration-availability'],
  /** Whether an email (lower-cased) may register. */
  emailInUse: (email: string) => ['email-in-use', email.toLowerCase()] as const,
  /** The server's answer for the activation code of an emailed link. */
  activationLinkCode: (code: string) => ['activation-link-code', code] as const,
  /** Prefix of one user's Manage Access data (current, pending, available roles). */
  access: (username: string) => ['access', username.toLowerCase()] as const,
  currentAccess: (username: string) => ['access', username.toLowerCase(), 'current'] as const,
  pendingAccess: (username: string) => ['access', username.toLowerCase(), 'pending'] as const,
  availableRoles: (username: string, showAll: boolean) =>
    ['access', username.toLowerCase(), 'roles', showAll] as const,
  resetLinkCode: (code: string) => ['reset-link-code', code] as const,
} as const;
