import './styles/base.compiled.css';
import './app/app.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRoot } from './app/app-root';
import { seedBootData } from './app/boot-data';
import { holdEarlyClicks } from './app/early-clicks';
import { queryClient } from './lib/query-client';
import { appRoutes } from './app/router';
import { createBrowserHistory } from './lib/routing/history';
import { preloadRoutes } from './lib/routing/router';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The page carries the boot calls' answers: the first screen renders without waiting for them.
seedBootData(queryClient);

const history = createBrowserHistory();
const app = <AppRoot client={queryClient} history={history} />;
// /home and a signed-in /welcome arrive already drawn (prerendered by the build, see
// prerender/render-pages.tsx): React takes over their markup, once the page's lazy parts are in, instead of
// drawing it again, in a transition: the work is cut into short tasks (a plain hydrateRoot is one
// long task, which the page is already painted and has no need for). Every other page starts
// from an empty #root.
if (container.firstElementChild) {
  // Clicks before React has the drawn page (see app/early-clicks.ts): a Log Out signs out at once
  // (the sign-out code loads then), another button is clicked again once React has the page.
  const early = holdEarlyClicks(container, () => {
    void import('./lib/sign-out').then(({ signOut }) => signOut());
  });
  const parts = preloadRoutes(appRoutes, history.location.pathname).flatMap(
    (route) => route.preload?.() ?? [],
  );
  void Promise.all(parts).finally(() =>
    early.takeOver(() =>
      startTransition(() => {
        hydrateRoot(container, app);
      }),
    ),
  );
} else {
  // Drawn in a transition: React cuts the work into short tasks (the first page's code starts
  // loading in the first of them, app.tsx) instead of one long task.
  const root = createRoot(container);
  startTransition(() => root.render(app));
}
