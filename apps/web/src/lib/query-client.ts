import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isCancelled } from '../api/client';
import { showAlert } from './alerts';

declare module '@tanstack/react-query' {
  interface Register {
    /**
     * `alertOnError`: show the failure in a danger toast, as its own message (`true`) or as the
     * given function words it.
     */
    queryMeta: { alertOnError?: boolean | ((error: Error) => string) };
  }
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        const alertOnError = query.meta?.alertOnError;
        if (!alertOnError || isCancelled(error)) return;
        showAlert(alertOnError === true ? error.message : alertOnError(error), 'danger');
      },
    }),
    // Every failure is already logged by the client; retrying would log and show it again.
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
}

export const queryClient = createQueryClient();
