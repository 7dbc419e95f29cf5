import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../platform/app-error';
import { routedPath } from './request-path';

/** One route pattern and the methods it is served with. */
export interface ServedRoute {
  url: string;
  methods: string[];
}

interface Served extends ServedRoute {
  pattern: RegExp;
}

/** Each app's routes, recorded as they are added. */
const tables = new WeakMap<FastifyInstance, Served[]>();

/** A route pattern ('/api/admin/people/:id') as a regular expression over decoded paths. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** Records every route the app will serve; call it before any route is added. */
export function recordServedRoutes(app: FastifyInstance): void {
  const table: Served[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    // The web app's static files ('/*', '/assets/*') would claim every path: they are no path's
    // methods (a missing file is a 404, and the SPA serves its pages through the 404 handler).
    if (route.url.includes('*')) return;
    const methods = [route.method].flat().map((m) => m.toUpperCase());
    table.push({ url: route.url, methods, pattern: patternOf(route.url) });
  });
}

/** Every route of the app with its methods (for the route matrix tests). */
export function servedRoutes(app: FastifyInstance): ServedRoute[] {
  const merged = new Map<string, Set<string>>();
  for (const route of tables.get(app) ?? []) {
    const methods = merged.get(route.url) ?? new Set<string>();
    for (const method of route.methods) methods.add(method);
    merged.set(route.url, methods);
  }
  return [...merged].map(([url, methods]) => ({ url, methods: [...methods] }));
}

/** The methods some route serves the (decoded) path with; none when no route has the path. */
export function servedMethods(app: FastifyInstance, path: string): string[] {
  const methods = new Set<string>();
  for (const route of tables.get(app) ?? []) {
    if (route.pattern.test(path)) for (const method of route.methods) methods.add(method);
  }
  return [...methods];
}

/**
 * For a request no route took: the methods its path is served with when the request's is not
 * among them (the 405's Allow), else null (a 404). Asked by the 404 handler, and by the error
 * handler for a request that failed before it (a body that is not JSON): nothing would read it.
 */
export function otherMethods(request: FastifyRequest): string[] | null {
  const allowed = servedMethods(request.server, routedPath(request));
  return allowed.length > 0 && !allowed.includes(request.method) ? allowed : null;
}

/**
 * A path served, but not with the request's method: 405 with `Allow` (RFC 9110), answered before
 * any session, CSRF or role check, since nothing will run.
 */
export function sendMethodNotAllowed(reply: FastifyReply, allowed: string[]): FastifyReply {
  return reply
    .status(405)
    .header('allow', allowed.join(', '))
    .type('application/json; charset=utf-8')
    .send({ errors: [messages.methodNotAllowed] });
}
