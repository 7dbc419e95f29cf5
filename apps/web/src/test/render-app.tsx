import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { App } from '../app/app';
import { createQueryClient } from '../app/query-client';
import { appRoutes } from '../app/router';

/** Renders the whole app (boot, router, layouts) at `path`, against whatever fake server is installed. */
export function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <App router={router} />
    </QueryClientProvider>,
  );
  return { router, ...view };
}
