import { approveOrDeny, getPendingApprovals } from '@pra/contracts/endpoints/approvals';
import { asksForPage } from '@pra/contracts/paging';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { decideRequest } from './decide-request';
import { countPendingApprovals, listPendingApprovals, pagePendingApprovals } from './list-approvals';

export const approvalsRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(getPendingApprovals, {}, async (request) => {
    if (request.query.getCountOnly) return { count: await countPendingApprovals(ctx, request.account) };
    // Without paging parameters: the spec's whole list (older callers); the page otherwise.
    if (asksForPage(request.query)) return pagePendingApprovals(ctx, request.account, request.query);
    return { pendingApprovals: await listPendingApprovals(ctx, request.account) };
  });

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
