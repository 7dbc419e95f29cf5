import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { routes } from '@pra/contracts';
import type { AuthStatusResponse, CurrentUser, SystemMessage } from '@pra/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { currentUserRecord } from '../identity/current-user';
import { readSystemMessage, systemMessageOfRow } from '../identity/system-message';
import type { AppContext } from '../platform/app-context';
import { messages } from '../platform/app-error';
import { authStatus } from './auth-status';
import { escapeText } from '../platform/html';
import { deploymentSettings, drawnPages } from './prerender/drawn-pages';
import { loadSession, rawSessionId } from './session';
import { ensureSession } from './session-plugin';
import { otherMethods, sendMethodNotAllowed } from './served-methods';

/** The built web app: apps/web/dist, found from both src/ (tests) and dist/ (the bundled server). */
const webDistDir =
  [
    fileURLToPath(new URL('../../web/dist/', import.meta.url)),
    fileURLToPath(new URL('../../../web/dist/', import.meta.url)),
  ].find((dir) => existsSync(`${dir}index.html`)) ??
  fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** Browser routes the SPA answers; any other path still gets the SPA, with status 404. */
const spaRoutes = new Set<string>([...Object.values(routes), '/dev/mailbox']);

export function isSpaRoute(path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return spaRoutes.has(clean);
}

/** index.html with the deployment's settings in its meta tags (no inline script: strict CSP). */
export function renderIndexHtml(template: string, config: Config): string {
  const settings = deploymentSettings(config);
  return template.replace(/<meta name="(pra-[a-z-]+)" content="[^"]*"/g, (whole, name: string) =>
    name in settings ? `<meta name="${name}" content="${escapeText(settings[name] ?? '')}"` : whole,
  );
}

/** Whether the system message shows as a banner to this caller (as SystemMessageBanner decides). */
function showsBanner(data: BootData): boolean {
  return data.systemMessage.enabled && (!data.systemMessage.loggedInOnly || data.authStatus.isAuthenticated);
}

/**
 * What the web app's first screen waits for, answered with the page itself: the CSRF token (of the
 * caller's session, created as GET /api/csrf would), the auth status and the system message, the
 * same bodies as GET /api/csrf, /api/saml/is-authenticated and /api/system-message, and for a
 * signed-in caller the current user, as GET /api/user answers for that session. The app reads
 * them from the pra-boot meta tag instead of making those calls before it can render.
 */
export interface BootData {
  csrfToken: string;
  authStatus: AuthStatusResponse;
  systemMessage: SystemMessage;
  /** Only for a live session of an active account (absent for anyone else). */
  currentUser?: CurrentUser;
}

async function loadBootData(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<BootData | null> {
  // Page requests skip the session plugin (static files need no session): read it here.
  const rawId = rawSessionId(request, ctx.session);
  // With the organizations, as GET /api/user loads them (none without an account), and the banner:
  // one statement for a live session's page.
  const loaded = rawId
    ? await loadSession(ctx.db, ctx.session.secret, rawId, { organizations: true, systemMessage: true })
    : null;
  if (loaded) {
    request.session = loaded.session;
    request.account = loaded.account;
  }
  const session = await ensureSession(ctx, request, reply);
  const { account } = request;
  const data: BootData = {
    csrfToken: session.csrfToken,
    authStatus: authStatus(account ? session : null, ctx.config.SESSION_MAX_EXTENSIONS),
    systemMessage:
      loaded?.systemMessage !== undefined
        ? systemMessageOfRow(loaded.systemMessage, account !== null)
        : await readSystemMessage(ctx.db, account !== null),
  };
  if (account && loaded) {
    data.currentUser = currentUserRecord(
      ctx,
      account,
      loaded.organizations ?? [],
      loaded.maintenanceFlag ?? false,
      (await ctx.identityStore.health()).ok,
    );
  }
  return data;
}

/** index.html with the boot data in its pra-boot meta tag (escaped JSON). */
export function withBootData(indexHtml: string, data: BootData): string {
  return indexHtml.replace(
    '<meta name="pra-boot" content=""',
    `<meta name="pra-boot" content="${escapeText(JSON.stringify(data))}"`,
  );
}

function varyOnEncoding(res: { setHeader(name: string, value: string): unknown }) {
  res.setHeader('vary', 'accept-encoding');
}

/**
 * Serves the web app's files and answers every other GET outside /api with index.html, so that
 * deep links work. Hashed assets are cached for a year. index.html is never stored: it carries
 * the caller's CSRF token and auth status (the boot data), and sets the session cookie when the
 * caller had none, as the app's first call did before.
 */
export async function registerWebApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config } = ctx;
  const indexFile = `${webDistDir}index.html`;
  const hasBuild = existsSync(indexFile);
  const indexHtml = hasBuild ? renderIndexHtml(readFileSync(indexFile, 'utf8'), config) : '';
  // The web build's prerendered landing page and /welcome for each kind of signed-in person
  // (prerender/: in dot directories, which the file server does not serve).
  const drawn = hasBuild ? drawnPages(webDistDir, indexHtml, config) : null;
  const homeHtml = drawn?.home ?? null;
  const welcomeHtml = drawn?.welcome ?? (() => null);
  if (hasBuild) {
    // The web build writes .br and .gz beside each file (apps/web/scripts/precompress.mjs).
    const common = { preCompressed: true, index: false as const, setHeaders: varyOnEncoding };
    // Hashed bundles never change under their name: cache them for a year.
    await app.register(fastifyStatic, {
      ...common,
      root: `${webDistDir}assets/`,
      prefix: '/assets/',
      maxAge: '365d',
      immutable: true,
    });
    // Everything else (favicon, logo, static docs) for an hour.
    await app.register(fastifyStatic, {
      ...common,
      root: webDistDir,
      wildcard: true,
      // Not dist/.prerendered/ (the drawn pages' markup, only ever sent inside their pages), nor
      // dist/.vite/ (the build's manifest).
      dotfiles: 'ignore',
      maxAge: '1h',
      decorateReply: false,
    });
  }

  // The page with its boot data. Without it (a HEAD request; the anonymous-session limit reached;
  // the database failing; an unknown path) the app makes the boot calls itself, and they answer as they do.
  // A path that is no page gets none: a scanner's guesses open no sessions.
  // /home and /welcome (signed in) go out already drawn, unless a system message banner shows (it
  // is not in the drawings).
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, isPage: boolean) => {
    const data =
      isPage && request.method === 'GET'
        ? await loadBootData(ctx, request, reply).catch((error: unknown) => {
            request.log.warn({ err: error }, 'page sent without its boot data');
            return null;
          })
        : null;
    return reply
      .status(isPage ? 200 : 404)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(data ? withBootData(pageHtml(request, data), data) : indexHtml);
  };

  const pageHtml = (request: FastifyRequest, data: BootData) => {
    // Neither drawing has the system message banner: with one showing, the app draws the page.
    if (showsBanner(data)) return indexHtml;
    const path = request.url.split('?')[0];
    if (path === routes.home && homeHtml) return homeHtml;
    if (path === routes.welcome && data.currentUser) return welcomeHtml(data.currentUser) ?? indexHtml;
    return indexHtml;
  };

  // The static plugin would treat / as a directory listing; the SPA decides where / leads.
  app.get('/', (request, reply) =>
    hasBuild
      ? sendPage(request, reply, true)
      : reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built: run npm run build'),
  );

  app.setNotFoundHandler((request, reply) => {
    const allowed = otherMethods(request);
    if (allowed) return sendMethodNotAllowed(reply, allowed);
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/');
    if (!wantsPage) {
      return reply
        .status(404)
        .type('application/json; charset=utf-8')
        .send({ errors: [messages.notFound] });
    }
    if (!hasBuild) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built: run npm run build');
    }
    return sendPage(request, reply, isSpaRoute(path));
  });
}
