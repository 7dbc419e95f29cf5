// Build step (draw-pages.mjs runs it after `vite build`): pages as the app renders them, so
// the server can send them already drawn and the first paint does not wait for the JavaScript
// (main.tsx hydrates them): the landing page for an anonymous visitor with no system message, and
// /welcome for each kind of signed-in person. What the build cannot know carries markers the
// server replaces (apps/server/src/http/web-app.ts): the deployment's settings
// (`@@pra-hospital-name@@`...) and the person's names (`@@pra-user-given-name@@`...).
import { renderToString } from 'react-dom/server';
import type { CurrentUser } from '@pra/contracts';
import { api, routes } from '@pra/contracts/paths';
import { AppRoot } from '../app/app-root';
import { createQueryClient } from '../lib/query-client';
import { queryKeys } from '../lib/query-keys';
import { appRoutes } from '../app/router';
import { createMemoryHistory } from '../lib/routing/history';
import { matchRoutes } from '../lib/routing/router';

/** The marker standing for the deployment setting `name` (a pra-* meta tag) in prerendered markup. */
export const settingMarker = (name: string) => `@@${name}@@`;

/** The person's names in a drawn /welcome: its heading reads `Welcome <given> <family>`. */
export const USER_NAME_MARKERS = {
  givenName: '@@pra-user-given-name@@',
  familyName: '@@pra-user-family-name@@',
};

/** What a drawn /welcome depends on: the kind of account and whether the identity service is up. */
export type WelcomeVariant = Pick<CurrentUser, 'type' | 'isEmployeeBrm' | 'isAdmin' | 'iiqAvailable'>;

/** Every kind of signed-in person /welcome is drawn for (the BRM and admin flags only count on employees). */
export const welcomeVariants: WelcomeVariant[] = [true, false].flatMap((iiqAvailable) => [
  { type: 'vendor', isEmployeeBrm: false, isAdmin: false, iiqAvailable },
  ...[false, true].flatMap((isEmployeeBrm) =>
    [false, true].map((isAdmin) => ({ type: 'employee' as const, isEmployeeBrm, isAdmin, iiqAvailable })),
  ),
]);

/** The web app's source modules whose chunks (and their stylesheets) a drawn /welcome needs. */
export const welcomeModules = [
  'src/app/layout/main-layout.tsx',
  'src/app/guards/require-access.tsx',
  'src/features/welcome/welcome-page.tsx',
];

async function renderPage(path: string, fill: (client: ReturnType<typeof createQueryClient>) => void) {
  // Lazy parts must be in before rendering: renderToString does not wait for them.
  await Promise.all((matchRoutes(appRoutes, path) ?? []).flatMap((route) => route.preload?.() ?? []));
  const client = createQueryClient();
  client.setQueryData(queryKeys.csrf, 'prerendered');
  client.setQueryData(queryKeys.systemMessage, {
    enabled: false,
    loggedInOnly: false,
    severity: 'info',
    title: '',
    text: '',
  });
  fill(client);
  return renderToString(<AppRoot client={client} history={createMemoryHistory(path)} />);
}

/** The inner HTML of #root for /home. */
export function renderHomePage(): Promise<string> {
  return renderPage(routes.home, (client) =>
    client.setQueryData(queryKeys.authStatus, { isAuthenticated: false }),
  );
}

/**
 * The inner HTML of #root for /welcome, for a person of `variant`: the names left as markers when
 * `user` is not given; with it, as the app renders that person's page.
 */
export function renderWelcomePage(variant: WelcomeVariant, user?: CurrentUser): Promise<string> {
  const person: CurrentUser = user ?? {
    id: '',
    username: '',
    ...USER_NAME_MARKERS,
    jobTitle: '',
    isActive: true,
    email: '',
    manager: '',
    orgs: [],
    loginUrl: api.login,
    ...variant,
  };
  return renderPage(routes.welcome, (client) => {
    // Far from its end: the session countdown shows nothing, as in the browser.
    const expires = new Date(Date.now() + 24 * 3600_000).toISOString();
    client.setQueryData(queryKeys.authStatus, {
      isAuthenticated: true,
      expires,
      remainingSessionExtentions: 0,
    });
    client.setQueryData(queryKeys.currentUser, person);
  });
}
