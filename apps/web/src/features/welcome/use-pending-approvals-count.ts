import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../api/client';
import { queryKeys } from '../../lib/query-keys';

/** The approvals badge count; only fetched for BRMs and admins (with a username). A failure shows as an alert. */
export function usePendingApprovalsCount(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.pendingApprovalsCount,
    // Apart from the other approvals calls, the endpoint (and the schema library) loads with the
    // call, after the page is up.
    queryFn: async ({ signal }) => {
      const { getPendingApprovals } = await import('@pra/contracts/endpoints/approvals');
      const { pendingApprovalsCountResponse } = await import('@pra/contracts/approvals');
      return callEndpoint(
        getPendingApprovals,
        { query: { getCountOnly: 'true' }, signal },
        pendingApprovalsCountResponse,
      );
    },
    enabled,
    meta: { alertOnError: true },
  });
}
