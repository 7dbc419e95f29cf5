import { useQuery } from '@tanstack/react-query';
import { getPendingApprovalsCount } from '../../api/approvals-count';
import { queryKeys } from '../../lib/query-keys';

/** The approvals badge count; only fetched for BRMs and admins (with a username). A failure shows as an alert. */
export function usePendingApprovalsCount(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.pendingApprovalsCount,
    queryFn: ({ signal }) => getPendingApprovalsCount(signal),
    enabled,
    meta: { alertOnError: true },
  });
}
