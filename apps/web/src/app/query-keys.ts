/** Keys of the shared server-state queries, so invalidations name the same thing. */
export const queryKeys = {
  csrf: ['csrf'],
  authStatus: ['auth-status'],
  currentUser: ['current-user'],
  systemMessage: ['system-message'],
  /** Prefix of the approvals list and the welcome badge count: invalidating it refreshes both. */
  pendingApprovals: ['pending-approvals'],
  pendingApprovalsList: ['pending-approvals', 'list'],
  pendingApprovalsCount: ['pending-approvals', 'count'],
  passwordRequirements: (username: string) => ['password-requirements', username] as const,
} as const;
