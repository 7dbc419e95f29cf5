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
import { preloadRoutesInTurns } from './lib/routing/router';

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
// The page's own code loads a part per task (preloadRoutesInTurns), not in React's first render.
const startPageParts = () => preloadRoutesInTurns(appRoutes, history.location.pathname);
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
  // The page is drawn already: its parts load beside React DOM, and React takes it over once both
  // are in.
  void startPageParts()
    .then((loads) => Promise.all(loads))
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
  // The parts start once React DOM is in, and React draws once all have started (one not yet
  // started when the router renders would start in that render). Started before React DOM's
  // evaluation, their modules arrived with it and were evaluated in its task, which then passed
  // 50 ms in some loads on the bench machine (bench/RESULTS.md, 2026-11-29, night).
  // Drawn in a transition: React cuts the work into short tasks instead of one long task.
  void reactDom.then(async ({ createRoot }) => {
    // Started, not awaited: the router's render waits for each part (Suspense).
    void (await startPageParts());
    const root = createRoot(container);
    startTransition(() => root.render(app));
  });
}
