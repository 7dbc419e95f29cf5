import {
  endDelegation,
  getDelegation,
  getRoutingOverview,
  setAssignmentKind,
  setDelegation,
} from '@pra/contracts/endpoints/approval-routing';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { changeAssignmentKind, routingOverview } from './assignments';
import { delegationState, endDelegationNow, saveDelegation } from './delegation';

/** Approval routing (GOVERNANCE.md §5.7): Away and Backup, primary and backup BRMs. */
export const approvalRoutingRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(getDelegation, {}, async (request) => delegationState(ctx, request.account));

  route(setDelegation, {}, async (request) => ({
    success: true,
    delegation: await saveDelegation(ctx, request.account, request.body, request.ip),
  }));

  route(endDelegation, {}, async (request) => {
    await endDelegationNow(ctx, request.account, request.ip);
    return { success: true };
  });

  route(setAssignmentKind, {}, async (request) => {
    await changeAssignmentKind(ctx, request.account, {
      personId: request.params.id,
      organizationId: request.params.orgId,
      kind: request.body.kind,
      clientAddress: request.ip,
    });
    return { success: true };
  });

  route(getRoutingOverview, {}, async () => routingOverview(ctx));
};
