import { api, authStatusResponse, csrfResponse } from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/app-context';
import { ensureSession } from '../../http/session-plugin';
import { authStatus } from '../../http/auth-status';
import { samlRoutes } from './saml-routes';
import { userRoutes } from './user-routes';

/** Signing in and out (SAML), the session's CSRF token and status, the signed-in user and extending. */
export const sessionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  await app.register(samlRoutes, ctx);
  await app.register(userRoutes, ctx);

  app.get(api.csrf, { schema: { response: { 200: csrfResponse } } }, async (request, reply) => {
    const session = await ensureSession(ctx, request, reply);
    return { csrfToken: session.csrfToken };
  });

  app.get(
    api.isAuthenticated,
    { schema: { response: { 200: authStatusResponse } }, config: { audits: false } },
    async (request) => {
      // request.account is null for a session whose account is no longer active: anonymous.
      return authStatus(request.account ? request.session : null, ctx.config.SESSION_MAX_EXTENSIONS);
    },
  );
};
