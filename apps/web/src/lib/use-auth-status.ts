import { useQuery } from '@tanstack/react-query';
import { getAuthStatus } from '../api/session';
import { queryKeys } from './query-keys';

/** Whether the browser has a session, and until when. Loaded at boot; re-read after extending. */
export function useAuthStatus() {
  return useQuery({
    queryKey: queryKeys.authStatus,
    queryFn: ({ signal }) => getAuthStatus(signal),
    staleTime: Infinity,
  });
}

/** Convenience: true once the auth status says the user is signed in. */
export function useIsAuthenticated(): boolean {
  return useAuthStatus().data?.isAuthenticated === true;
}
