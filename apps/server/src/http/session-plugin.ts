import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hitRateLimit } from '../identity/rate-limit';
import type { AppContext } from './context';
import { AppError, messages } from './errors';
import {
  ANONYMOUS_SESSION_HOURS,
  csrfTokenMatches,
  findSession,
  insertSession,
  rawSessionId,
  setSessionCookie,
  type Session,
} from './session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's live session, if the cookie names one. */
    session: Session | null;
  }
}

/** State-changing API calls that cannot carry our CSRF token, each for its own reason. */
const csrfExempt = new Set([
  // The IdP posts the SAML response from its own page; the response is signed and one-time.
  '/api/saml/acs',
  // The browser reports a failure, possibly of /api/csrf itself; it changes nothing but a log line.
  '/api/client-log',
]);

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** New anonymous sessions one client address may open (a NAT of many people stays well below). */
const ANONYMOUS_SESSION_RATE = { limit: 300, windowSeconds: 600 };

function isApi(request: FastifyRequest): boolean {
  return request.url.startsWith('/api/');
}

/** Loads the session for API calls and enforces the CSRF rules on state-changing ones. */
export const sessionPlugin = fp(async (app: FastifyInstance, ctx: AppContext) => {
  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request) => {
    if (!isApi(request) && !request.url.startsWith('/idp/') && !request.url.startsWith('/dev/')) return;
    const rawId = rawSessionId(request, ctx.session);
    request.session = rawId ? await findSession(ctx.db, ctx.session.secret, rawId) : null;
  });

  app.addHook('preHandler', async (request) => {
    if (!isApi(request) || safeMethods.has(request.method)) return;
    const path = request.url.split('?')[0] ?? '';
    if (csrfExempt.has(path)) return;
    const fromOurClient = request.headers['x-pra-api-call'] === 'true';
    const token = request.session?.csrfToken;
    if (!fromOurClient || !token || !csrfTokenMatches(token, request.headers['x-csrf-token'])) {
      request.log.warn({ hasSession: Boolean(request.session), fromOurClient }, 'csrf check failed');
      throw new AppError('forbidden', messages.csrf);
    }
  });
});

/** The caller's session, creating an anonymous one (and its cookie) when there is none. */
export async function ensureSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Session> {
  if (request.session) return request.session;
  // Anonymous sessions cost a row each: a client address may open only so many.
  const limit = await hitRateLimit(ctx.db, `anonymous-session:${request.ip}`, ANONYMOUS_SESSION_RATE);
  if (!limit.allowed) throw new AppError('tooManyRequests', messages.tooMany, limit.retryAfterSeconds);
  const { rawId, expiresAt } = await insertSession(ctx.db, {
    accountId: null,
    lifetimeMs: ANONYMOUS_SESSION_HOURS * 3600_000,
    clientAddress: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
  });
  setSessionCookie(reply, ctx.session, rawId, expiresAt);
  const session = await findSession(ctx.db, ctx.session.secret, rawId);
  if (!session) throw new Error('new session not found');
  request.session = session;
  return session;
}
