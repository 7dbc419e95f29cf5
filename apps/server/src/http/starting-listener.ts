import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { messages } from '../platform/app-error';
import { listen } from '../platform/listen';
import { probes } from './probes';
import { securityHeaders } from './security-headers';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** What a caller is told to wait before trying again while the instance starts. */
const RETRY_AFTER_SECONDS = 5;

const unavailableBody = JSON.stringify({ errors: [messages.unavailable] });

/**
 * What a browser opening a page gets instead (a person who followed the start's printed address a
 * moment early): the same words on a page, with no script, style or image and a policy that allows
 * none. It does not reload itself: a timed refresh takes the page away from someone still reading
 * it (axe's meta-refresh rule, WCAG 2.2.1).
 */
const startingPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PRA Portal</title>
</head>
<body>
<main>
<h1>PRA Portal</h1>
<p role="status">${messages.unavailable}</p>
</main>
</body>
</html>
`;
/** The app's security headers on it, with a policy stricter than the app's: the page loads nothing. */
const startingPageHeaders = {
  ...securityHeaders(true),
  'content-security-policy':
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** A browser asking for a page: GET or HEAD outside the API, accepting HTML. */
function wantsPage(request: IncomingMessage, path: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (path === '/api' || path.startsWith('/api/')) return false;
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(request.headers.accept ?? '');
}

/**
 * Answers while the portal starts (waiting for its database, migrating, building the app): the
 * liveness probe says alive, so an orchestrator does not restart a process that is only waiting;
 * the readiness probe and every other call answer 503, so no balancer sends it users yet: as the
 * API's error envelope, or as a short page for a browser that asked for one.
 */
function answerWhileStarting(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  response.setHeader('cache-control', 'no-store');
  response.setHeader('x-content-type-options', 'nosniff');
  if (path === probes.liveness || path === probes.readiness) {
    const alive = path === probes.liveness;
    response.writeHead(alive ? 200 : 503, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(alive ? 'ok\n' : 'not ready\n');
    return;
  }
  if (wantsPage(request, path)) {
    response.writeHead(503, {
      ...startingPageHeaders,
      'content-type': 'text/html; charset=utf-8',
      'retry-after': String(RETRY_AFTER_SECONDS),
    });
    response.end(startingPage);
    return;
  }
  response.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'retry-after': String(RETRY_AFTER_SECONDS),
  });
  response.end(unavailableBody);
}

export interface StartingListener {
  server: Server;
  /** For fastify's `serverFactory`: keeps the app's handler for `open`, returns the listening server. */
  adopt(handler: Handler): Server;
  /** From now on every request goes to the adopted app (call once it is ready). */
  open(): void;
  /** Closes the listener and its idle connections (a start that failed). */
  close(): Promise<void>;
}

/**
 * The portal's one HTTP listener, opened in the first moment of a start: the same socket serves
 * the start-up answers and then the app, so there is no instant in which the port refuses
 * connections or answers as ready before it is.
 */
export async function listenWhileStarting(port: number, host: string): Promise<StartingListener> {
  let current: Handler = answerWhileStarting;
  let adopted: Handler | null = null;
  const server = createServer((request, response) => current(request, response));
  await listen(server, port, host);
  return {
    server,
    adopt(handler) {
      adopted = handler;
      return server;
    },
    open() {
      if (!adopted) throw new Error('no app adopted the listener');
      current = adopted;
    },
    close: () => closeServer(server),
  };
}

/** Stops listening (if it still does) and ends the connections that carry no request. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
