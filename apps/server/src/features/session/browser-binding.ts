import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionSettings } from '../../platform/app-context';
import { REQUEST_TTL_MS } from '../../identity/saml-sp';

/**
 * A sign-in belongs to the browser that started it. The login sets a random nonce cookie and the
 * AuthnRequest id is stored with the nonce's hash; the ACS accepts a response only from the same
 * browser, so a response obtained for one person cannot sign another browser in (login CSRF).
 * The IdP's post is cross-site for an external IdP, so the cookie is SameSite=None (Secure);
 * plain-http localhost cannot have that and uses Lax, which the same-origin built-in IdP satisfies.
 */
function cookieName(settings: SessionSettings): string {
  return settings.secureCookie ? '__Host-pra_saml' : 'pra_saml';
}

function hashNonce(nonce: string): string {
  return createHash('sha256').update(nonce).digest('base64url');
}

/** The hash of this browser's sign-in nonce, creating the nonce (and its cookie) when needed. */
export function bindSignInToBrowser(
  request: FastifyRequest,
  reply: FastifyReply,
  settings: SessionSettings,
): string {
  const existing = request.cookies[cookieName(settings)];
  // Reused while it lives, so two tabs signing in at once both finish.
  const nonce =
    existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomBytes(32).toString('base64url');
  reply.setCookie(cookieName(settings), nonce, {
    path: '/',
    httpOnly: true,
    secure: settings.secureCookie,
    sameSite: settings.secureCookie ? 'none' : 'lax',
    maxAge: REQUEST_TTL_MS / 1000,
  });
  return hashNonce(nonce);
}

/** The hash of the nonce the posting browser carries; '' when it carries none. */
export function signInBrowserHash(request: FastifyRequest, settings: SessionSettings): string {
  const nonce = request.cookies[cookieName(settings)];
  return nonce ? hashNonce(nonce) : '';
}
