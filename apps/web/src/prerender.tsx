// Build step (scripts/prerender.mjs runs it after `vite build`): the landing page's markup, as the
// app renders it for an anonymous visitor with no system message, so the server can send /home
// already drawn and the first paint does not wait for the JavaScript (main.tsx hydrates it).
// The deployment's settings are not known at build time: the page carries markers in their place
// (`@@pra-hospital-name@@`...), which the server replaces from its configuration
// (apps/server/src/http/web-app.ts).
import { renderToString } from 'react-dom/server';
import { routes } from '@pra/contracts/paths';
import { AppRoot } from './app/app-root';
import { createQueryClient } from './app/query-client';
import { queryKeys } from './app/query-keys';
import { createMemoryHistory } from './app/routing/history';

/** The marker standing for the deployment setting `name` (a pra-* meta tag) in prerendered markup. */
export const settingMarker = (name: string) => `@@${name}@@`;

/** The inner HTML of #root for /home. */
export function renderHomePage(): string {
  const client = createQueryClient();
  client.setQueryData(queryKeys.csrf, 'prerendered');
  client.setQueryData(queryKeys.authStatus, { isAuthenticated: false });
  client.setQueryData(queryKeys.systemMessage, {
    enabled: false,
    loggedInOnly: false,
    severity: 'info',
    title: '',
    text: '',
  });
  return renderToString(<AppRoot client={client} history={createMemoryHistory(routes.home)} />);
}
