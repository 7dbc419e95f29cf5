import { extendSession as extendSessionCall, getCurrentUser } from '@pra/contracts/endpoints/session';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { rawSessionId, setSessionCookie } from '../../http/session';
import { currentUserRecord } from '../../identity/current-user';
import { extendSession } from './extend-session';

export const userRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(getCurrentUser, { config: { organizations: true, audits: false } }, async (request) =>
    currentUserRecord(
      ctx,
      request.account,
      request.organizations ?? [],
      request.maintenanceFlag ?? false,
      (await ctx.identityStore.health()).ok,
    ),
  );

  route(extendSessionCall, {}, async (request, reply) => {
    const expiresAt = await extendSession(ctx, request.session, request.account, request.ip);
    const rawId = rawSessionId(request, ctx.session);
    // The cookie must outlive the old end too, or the browser would drop the extended session.
    if (expiresAt && rawId) setSessionCookie(reply, ctx.session, rawId, expiresAt);
    return { success: expiresAt !== null };
  });
};
