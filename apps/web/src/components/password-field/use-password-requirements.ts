import { useQuery } from '@tanstack/react-query';
import { api } from '@pra/contracts/paths';
import { passwordRequirementsBody } from '../../api/boot-parsers';
import { call } from '../../api/client';
import { queryKeys } from '../../lib/query-keys';

/** The password policy for `username` (blocked terms depend on the person). A failure shows as an alert. */
export function usePasswordRequirements(username: string) {
  return useQuery({
    queryKey: queryKeys.passwordRequirements(username),
    // Checked by hand (boot-parsers.ts): the password field's page does not load zod for it.
    queryFn: ({ signal }) =>
      call(passwordRequirementsBody, {
        method: 'get',
        url: api.passwordRequirements,
        params: { username },
        signal,
      }),
    staleTime: 5 * 60_000,
    meta: { alertOnError: true },
  });
}
