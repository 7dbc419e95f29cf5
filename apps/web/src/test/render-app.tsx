import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from '../app/app';
import { createQueryClient } from '../lib/query-client';
import { appRoutes } from '../app/router';
import { createMemoryHistory } from '../lib/routing/history';
import type { Route } from '../lib/routing/router';

// Pages load on demand, and vite transforms a module on its first import: on a busy machine that
// takes longer than Testing Library's 1 s wait in the first test of a file. Every page is loaded
// here once, while the test file is imported, so the tests time the app and not the transform.
const loadAll = (routes: Route[]): Promise<unknown> =>
  Promise.all(routes.map((route) => Promise.all([route.preload?.(), loadAll(route.children ?? [])])));
await loadAll(appRoutes);

/**
 * Renders the whole app (boot, router, layouts) at `path`, against whatever fake server is
 * installed; `client` for one already seeded (e.g. with a page's boot data).
 */
export function renderApp(path: string, client = createQueryClient()) {
  const history = createMemoryHistory(path);
  const view = render(
    <QueryClientProvider client={client}>
      <App history={history} />
    </QueryClientProvider>,
  );
  return { history, ...view };
}
