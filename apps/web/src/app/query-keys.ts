/** Keys of the shared server-state queries, so invalidations name the same thing. */
export const queryKeys = {
  csrf: ['csrf'],
  authStatus: ['auth-status'],
  currentUser: ['current-user'],
  systemMessage: ['system-message'],
} as const;
