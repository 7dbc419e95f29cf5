import type { FastifyInstance } from 'fastify';

/**
 * The security headers of every response: a strict CSP and the rest of what helmet sets, with
 * the same values. They depend only on the configuration, so they are built once at boot and
 * copied onto each reply; helmet rebuilt its middleware chain on every request instead.
 */
export function securityHeaders(insecureCookies: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Plain-http localhost (standalone on a laptop) must not be upgraded to https.
    ...(insecureCookies ? [] : ['upgrade-insecure-requests']),
  ].join(';');
  return {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

export function registerSecurityHeaders(app: FastifyInstance, insecureCookies: boolean): void {
  const headers = securityHeaders(insecureCookies);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
