import { useQuery } from '@tanstack/react-query';
import { getCurrentUser } from '../api/user';
import { queryKeys } from './query-keys';
import { useIsAuthenticated } from './use-auth-status';

/** The signed-in person's record; only fetched for authenticated sessions. */
export function useCurrentUser() {
  const isAuthenticated = useIsAuthenticated();
  return useQuery({
    queryKey: queryKeys.currentUser,
    queryFn: ({ signal }) => getCurrentUser(signal),
    enabled: isAuthenticated,
    staleTime: Infinity,
    meta: { alertOnError: true },
  });
}
