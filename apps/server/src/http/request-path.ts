import type { FastifyRequest } from 'fastify';

/**
 * The path a request is routed by: the matched route's pattern, else the decoded URL path. Raw
 * `request.url` must not decide anything: `/%61pi/csrf` reaches the `/api/csrf` route too.
 */
export function routedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern) return pattern;
  const raw = request.url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function isApiRequest(request: FastifyRequest): boolean {
  return routedPath(request).startsWith('/api/');
}
