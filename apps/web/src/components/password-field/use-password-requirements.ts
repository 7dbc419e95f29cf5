import { useQuery } from '@tanstack/react-query';
import * as calls from '@pra/contracts/endpoints/activation';
import { callEndpoint } from '../../api/client';
import { queryKeys } from '../../lib/query-keys';

/** The password policy for `username` (blocked terms depend on the person). A failure shows as an alert. */
export function usePasswordRequirements(username: string) {
  return useQuery({
    queryKey: queryKeys.passwordRequirements(username),
    queryFn: ({ signal }) => callEndpoint(calls.getPasswordRequirements, { query: { username }, signal }),
    staleTime: 5 * 60_000,
    meta: { alertOnError: true },
  });
}
