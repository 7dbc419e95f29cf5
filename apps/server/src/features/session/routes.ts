import { getAuthStatus, getCsrfToken } from '@pra/contracts/endpoints/session';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { ensureSession } from '../../http/session-plugin';
import { authStatus } from '../../http/auth-status';
import { samlRoutes } from './saml-routes';
import { userRoutes } from './user-routes';

/** Signing in and out (SAML), the session's CSRF token and status, the signed-in user and extending. */
export const sessionRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  await app.register(samlRoutes, ctx);
  await app.register(userRoutes, ctx);
  const route = endpointRouter(app, ctx);

  route(getCsrfToken, {}, async (request, reply) => {
    const session = await ensureSession(ctx, request, reply);
    return { csrfToken: session.csrfToken };
  });

  route(getAuthStatus, { config: { audits: false } }, async (request) => {
    // request.account is null for a session whose account is no longer active: anonymous.
    return authStatus(request.account ? request.session : null, ctx.config.SESSION_MAX_EXTENSIONS);
  });
};
