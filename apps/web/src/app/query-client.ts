import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isCancelled } from '../api/client';
import { showAlert } from './alerts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `alertOnError`: show the failure's message in a danger toast. */
    queryMeta: { alertOnError?: boolean };
  }
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        if (query.meta?.alertOnError && !isCancelled(error)) showAlert(error.message, 'danger');
      },
    }),
    // Every failure is already logged by the client; retrying would log and show it again.
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
}

export const queryClient = createQueryClient();
