import {
  api,
  approveOrDenyBody,
  approveOrDenyResponse,
  pendingApprovalsCountResponse,
  pendingApprovalsQuery,
  pendingApprovalsResponse,
} from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/app-context';
import { createGuards } from '../../http/guards';
import { decideRequest } from './decide-request';
import { countPendingApprovals, listPendingApprovals } from './list-approvals';

export const approvalsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);

  app.get(
    api.pendingApprovals,
    {
      schema: {
        querystring: pendingApprovalsQuery,
        response: { 200: z.union([pendingApprovalsCountResponse, pendingApprovalsResponse]) },
      },
      onRequest: [guards.requireLogin, guards.requireBrmOrAdmin],
    },
    async (request) =>
      request.query.getCountOnly
        ? { count: await countPendingApprovals(ctx.db, request.account!) }
        : { pendingApprovals: await listPendingApprovals(ctx.db, request.account!) },
  );

  app.post(
    api.approveOrDeny,
    {
      schema: { body: approveOrDenyBody, response: { 200: approveOrDenyResponse } },
      onRequest: [guards.requireLogin, guards.requireBrmOrAdmin],
      preHandler: [guards.requireIdentityService],
    },
    async (request) => {
      const { decision, requestId, workItemId, comment } = request.body;
      await decideRequest({
        ctx,
        actor: request.account!,
        requestId,
        workItemId,
        decision,
        comment,
        clientAddress: request.ip,
      });
      return { success: true };
    },
  );
};
