// First: before any module builds a schema (lib/zod-config.ts).
import './lib/zod-config';
import './styles/base.compiled.css';
import './app/app.css';
import { startTransition } from 'react';
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
// React's DOM renderer, the largest part of the code, is evaluated in a task of its own, after this
// module's (the app's shell): each stays short (a long task holds the first input and paint;
// bench:scale holds /brm/manage-users to none over 50 ms). index.html preloads its chunk beside
// this one (vite.config.ts), so it costs no extra round trip.
const reactDom = import('react-dom/client');
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
  void Promise.all(parts)
    .catch(() => undefined)
    .then(() => reactDom)
    .then(({ hydrateRoot }) =>
      early.takeOver(() =>
        startTransition(() => {
          hydrateRoot(container, app);
        }),
      ),
    );
} else {
  // Drawn in a transition: React cuts the work into short tasks (the first page's code starts
  // loading in the first of them, app.tsx) instead of one long task.
  void reactDom.then(({ createRoot }) => {
    const root = createRoot(container);
    startTransition(() => root.render(app));
  });
}
