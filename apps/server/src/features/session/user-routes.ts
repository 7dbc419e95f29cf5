import { api, currentUser, extendSessionResponse } from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/app-context';
import { createGuards } from '../../http/guards';
import { rawSessionId, setSessionCookie } from '../../http/session';
import { currentUserRecord } from '../../identity/current-user';
import { extendSession } from './extend-session';

export const userRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);

  app.get(
    api.user,
    {
      schema: { response: { 200: currentUser } },
      onRequest: [guards.requireLogin],
      config: { organizations: true, audits: false },
    },
    async (request) =>
      currentUserRecord(ctx, request.account!, request.organizations ?? [], request.maintenanceFlag ?? false),
  );

  app.post(
    api.extendSession,
    { schema: { response: { 200: extendSessionResponse } }, onRequest: [guards.requireLogin] },
    async (request, reply) => {
      const expiresAt = await extendSession(ctx, request.session!, request.account!, request.ip);
      const rawId = rawSessionId(request, ctx.session);
      // The cookie must outlive the old end too, or the browser would drop the extended session.
      if (expiresAt && rawId) setSessionCookie(reply, ctx.session, rawId, expiresAt);
      return { success: expiresAt !== null };
    },
  );
};
