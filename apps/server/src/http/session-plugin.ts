import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { enforceRateLimit } from '../identity/rate-limit';
import { bearerCredentials } from '../identity/service-tokens';
import type { Account } from '../platform/db-schema';
import type { AppContext } from '../platform/app-context';
import { AppError, messages } from '../platform/app-error';
import { authenticateBearer, recordBearerUse } from './bearer';
import { isApiRequest, routedPath } from './request-path';
import {
  ANONYMOUS_SESSION_HOURS,
  csrfTokenMatches,
  insertSession,
  loadSession,
  rawSessionId,
  setSessionCookie,
  type Session,
} from './session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's live session, if the cookie names one. */
    session: Session | null;
    /** The session's account while it is active; null for anonymous callers. */
    account: Account | null;
    /** The active account's organizations, on routes whose config asks for them. */
    organizations: string[] | null;
    /** The admins' maintenance flag, loaded with the organizations (null when not asked for). */
    maintenanceFlag: boolean | null;
  }
  interface FastifyContextConfig {
    /** true on routes that need the account's organizations: loaded in the same query. */
    organizations?: boolean;
    /**
     * false for the few state-changing calls that cannot carry our CSRF token: the IdP's post of
     * the SAML response (signed and one-time), and client-log (it may report the failure of
     * /api/csrf itself and changes nothing but a log line).
     */
    csrf?: boolean;
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** New anonymous sessions one client address may open (a NAT of many people stays well below). */
const ANONYMOUS_SESSION_RATE = { limit: 300, windowSeconds: 600 };

/** Paths whose handlers read the session: the API, the built-in IdP and the dev mailbox. */
function usesSession(path: string): boolean {
  return path.startsWith('/api/') || path.startsWith('/idp/') || path.startsWith('/dev/');
}

/**
 * Loads the session and its active account once per request (one query), and enforces the CSRF rules on
 * state-changing API calls. A session whose account was disabled or terminated since sign-in
 * counts as anonymous everywhere.
 */
export const sessionPlugin = fp(async (app: FastifyInstance, ctx: AppContext) => {
  app.decorateRequest('session', null);
  app.decorateRequest('account', null);
  app.decorateRequest('organizations', null);
  app.decorateRequest('maintenanceFlag', null);
  app.decorateRequest('serviceToken', null);

  app.addHook('onRequest', async (request, reply) => {
    if (!usesSession(routedPath(request))) return;
    // A service token: the cookies are not read at all (http/bearer.ts).
    const bearer = bearerCredentials(request.headers.authorization);
    if (bearer !== null) return authenticateBearer(ctx, request, reply, bearer);
    const rawId = rawSessionId(request, ctx.session);
    if (!rawId) return;
    // One round trip: session, active account and (if the route asks) organizations together.
    const loaded = await loadSession(ctx.db, ctx.session.secret, rawId, {
      organizations: request.routeOptions.config.organizations === true,
    });
    if (!loaded) return;
    request.session = loaded.session;
    request.account = loaded.account;
    request.organizations = loaded.organizations;
    request.maintenanceFlag = loaded.maintenanceFlag;
  });

  // A callback hook (no promise per request): it never waits for anything.
  app.addHook('preHandler', (request, _reply, done) => {
    // No route (404, or 405 for a method the path does not serve): nothing runs to protect.
    if (request.is404 || !isApiRequest(request) || safeMethods.has(request.method)) return done();
    if (request.routeOptions.config.csrf === false) return done();
    // A bearer call carries no cookie authority: nothing for another site to ride on.
    if (request.serviceToken) return done();
    const fromOurClient = request.headers['x-pra-api-call'] === 'true';
    const token = request.session?.csrfToken;
    if (!fromOurClient || !token || !csrfTokenMatches(token, request.headers['x-csrf-token'])) {
      request.log.warn({ hasSession: Boolean(request.session), fromOurClient }, 'csrf check failed');
      return done(new AppError('forbidden', messages.csrf));
    }
    done();
  });

  // After the guards and validation: an accepted bearer call is audited (a callback hook that
  // returns at once for every other request).
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.serviceToken) return done();
    recordBearerUse(ctx, request).then(() => done(), done);
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
  await enforceRateLimit(ctx.db, `anonymous-session:${request.ip}`, ANONYMOUS_SESSION_RATE);
  const { rawId, session } = await insertSession(ctx.db, ctx.session.secret, {
    accountId: null,
    lifetimeMs: ANONYMOUS_SESSION_HOURS * 3600_000,
    clientAddress: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
  });
  setSessionCookie(reply, ctx.session, rawId, session.expiresAt);
  request.session = session;
  return session;
}
