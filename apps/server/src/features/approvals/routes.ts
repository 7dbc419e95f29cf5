import { api, pendingApprovalsCountQuery, pendingApprovalsCountResponse } from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../http/context';
import { createGuards } from '../../http/guards';
import { countDecidableItems } from './queries';

export const approvalsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);

  app.get(
    api.pendingApprovals,
    {
      schema: { querystring: pendingApprovalsCountQuery, response: { 200: pendingApprovalsCountResponse } },
      preHandler: [guards.requireLogin, guards.requireBrmOrAdmin],
    },
    async (request) => ({ count: await countDecidableItems(ctx.db, request.account!) }),
  );
};
