import { useQuery } from '@tanstack/react-query';
import { getPasswordRequirements } from '../../api/password';
import { queryKeys } from '../../lib/query-keys';

/** The password policy for `username` (blocked terms depend on the person). A failure shows as an alert. */
export function usePasswordRequirements(username: string) {
  return useQuery({
    queryKey: queryKeys.passwordRequirements(username),
    queryFn: ({ signal }) => getPasswordRequirements(username, signal),
    staleTime: 5 * 60_000,
    meta: { alertOnError: true },
  });
}
