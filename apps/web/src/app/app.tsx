import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { UNKNOWN_ERROR } from '../api/client';
import { loadCsrfToken } from '../api/session';
import { queryKeys } from './query-keys';
import { useAuthStatus } from './use-auth-status';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Renders nothing until the CSRF token and the auth status are in; every screen relies on both. */
export function App({ router }: { router: AppRouter }) {
  const csrf = useQuery({
    queryKey: queryKeys.csrf,
    queryFn: ({ signal }) => loadCsrfToken(signal),
    staleTime: Infinity,
  });
  const auth = useAuthStatus();

  if (csrf.isError || auth.isError) return <BootFailure />;
  if (!csrf.isSuccess || !auth.isSuccess) return null;
  return <RouterProvider router={router} />;
}

function BootFailure() {
  return (
    <main className="container py-5">
      <h1 className="visually-hidden">PRA Portal</h1>
      <Alert variant="danger">{UNKNOWN_ERROR}</Alert>
    </main>
  );
}
