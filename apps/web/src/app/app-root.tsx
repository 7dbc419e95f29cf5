import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { App } from './app';
import type { RouterHistory } from '../lib/routing/history';

/** The whole app, as the browser renders it (main.tsx) and the build prerenders /home (prerender/render-pages.tsx). */
export function AppRoot({ client, history }: { client: QueryClient; history: RouterHistory }) {
  return (
    <StrictMode>
      <QueryClientProvider client={client}>
        <App history={history} />
      </QueryClientProvider>
    </StrictMode>
  );
}
