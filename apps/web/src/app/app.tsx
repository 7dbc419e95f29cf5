import { useQuery } from '@tanstack/react-query';
import { UNKNOWN_ERROR } from '../api/client';
import { loadCsrfToken } from '../api/session';
import { queryKeys } from '../lib/query-keys';
import { appRoutes } from './router';
import type { RouterHistory } from '../lib/routing/history';
import { Router } from '../lib/routing/router';
import { useAuthStatus } from '../lib/use-auth-status';

/**
 * Renders nothing until the CSRF token and the auth status are in; every screen relies on both.
 * The first page's code is already loading (main.tsx); the router starts whatever is not.
 */
export function App({ history }: { history: RouterHistory }) {
  const csrf = useQuery({
    queryKey: queryKeys.csrf,
    queryFn: ({ signal }) => loadCsrfToken(signal),
    staleTime: Infinity,
  });
  const auth = useAuthStatus();

  if (csrf.isError || auth.isError) return <BootFailure />;
  if (!csrf.isSuccess || !auth.isSuccess) return null;
  return <Router history={history} routes={appRoutes} />;
}

function BootFailure() {
  return (
    <main className="container py-5">
      <h1 className="visually-hidden">PRA Portal</h1>
      <div className="alert alert-danger" role="alert">
        {UNKNOWN_ERROR}
      </div>
    </main>
  );
}
