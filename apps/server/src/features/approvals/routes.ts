import { approveOrDeny, getPendingApprovals } from '@pra/contracts/endpoints/approvals';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { decideRequest } from './decide-request';
import { countPendingApprovals, listPendingApprovals } from './list-approvals';

export const approvalsRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(getPendingApprovals, {}, async (request) =>
    request.query.getCountOnly
      ? { count: await countPendingApprovals(ctx, request.account) }
      : { pendingApprovals: await listPendingApprovals(ctx, request.account) },
  );

  route(approveOrDeny, {}, async (request) => {
    const { decision, requestId, workItemId, comment, accessEndsOn } = request.body;
    await decideRequest({
      ctx,
      actor: request.account,
      requestId,
      workItemId,
      decision,
      comment,
      accessEndsOn,
      clientAddress: request.ip,
    });
    return { success: true };
  });
};
