import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, UNKNOWN_ERROR } from '../../api/client';
import { splitFieldPath } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';

/** Query keys of the admin screens; a change refreshes its screen's list. */
export const adminKeys = {
  organizations: (filter: string) => ['admin', 'organizations', filter] as const,
  organizationsAll: ['admin', 'organizations'] as const,
  /** The pages of the Organizations, People and Mail tables (under their list's key, so refreshed with it). */
  organizationPages: ['admin', 'organizations', { paged: true }] as const,
  people: ['admin', 'people'] as const,
  peoplePages: ['admin', 'people', { paged: true }] as const,
  mailPages: ['admin', 'mail', { paged: true }] as const,
  systemMessage: ['admin', 'system-message'] as const,
  maintenance: ['admin', 'maintenance'] as const,
  mail: ['admin', 'mail'] as const,
  directory: ['admin', 'directory'] as const,
  audit: ['admin', 'audit'] as const,
  serviceTokens: ['admin', 'service-tokens'] as const,
  policies: ['admin', 'governance', 'policies'] as const,
  reportEnding: ['admin', 'reports', 'ending'] as const,
  reportSponsorship: ['admin', 'reports', 'sponsorship'] as const,
  reportOrganizations: ['admin', 'reports', 'organizations'] as const,
  reportVendorAccess: ['admin', 'reports', 'vendor-access'] as const,
  reportDormant: ['admin', 'reports', 'dormant'] as const,
  reportAcceptableUse: ['admin', 'reports', 'acceptable-use'] as const,
  reportSignInStrength: ['admin', 'reports', 'sign-in-strength'] as const,
  reportReviewEvidence: ['admin', 'reports', 'review-evidence'] as const,
  routing: ['admin', 'approval-routing'] as const,
};

/**
 * An admin change: runs it, says so in a toast (the server's message when refused) and refreshes
 * the lists named by `refresh`.
 */
export function useAdminAction<T, R = unknown>(
  action: (input: T) => Promise<R>,
  options: { success: string | ((input: T) => string); refresh: readonly (readonly string[])[] },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: async (_data, input) => {
      showAlert(typeof options.success === 'function' ? options.success(input) : options.success, 'success');
      await Promise.all(options.refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    // A refusal of one field reads without the API's path (`domains.0: `); the form puts it beside the field.
    onError: (error) =>
      showAlert(error instanceof ApiError ? splitFieldPath(error.message).text : UNKNOWN_ERROR),
  });
}
