import {
  cancelPendingAccess as cancelPendingCall,
  extendAccess as extendAccessCall,
  getAvailableRoles,
  getCurrentAccess,
  getPendingAccess,
  removeAccess,
  requestAccess,
  setAccessEnd as setAccessEndCall,
  grantEmergencyAccess as grantEmergencyAccessCall,
  reportDeparture as reportDepartureCall,
} from '@pra/contracts/endpoints/access';
import type { FastifyPluginAsync } from 'fastify';
import { auditingDenials } from '../../identity/audit';
import type { AppContext } from '../../platform/app-context';
import type { Account } from '../../platform/db-schema';
import { endpointRouter } from '../../http/endpoint-routes';
import { cancelPendingAccess } from './cancel-pending';
import { changeAccess } from './change-access';
import { extendAccess } from './extend-access';
import { setAccessEnd } from './set-access-end';
import { grantEmergencyAccess } from './emergency-access';
import { reportDeparture } from './report-departure';
import { listAvailableRoles, listCurrentAccess, listPendingAccess } from './list-access';
import { resolveScope } from './scope';

/**
 * Manage Access: a vendor's own roles (its changes are requests for the BRMs), or another vendor's
 * roles managed by a BRM or admin (changed at once, in the organizations it manages).
 */
export const accessRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  /** Whose access a listing shows; a refused name is audited as the changes' refusals are. */
  const scopeOf = (request: { account: Account; ip: string }, username: string) =>
    auditingDenials(ctx.db, (deny) =>
      resolveScope(ctx.db, request.account, username, {
        deny,
        action: 'access.view',
        clientAddress: request.ip,
      }),
    );

  route(getCurrentAccess, {}, async (request) =>
    listCurrentAccess(ctx.db, await scopeOf(request, request.query.username), {
      now: ctx.clock.now(),
      zone: ctx.config.PORTAL_TIME_ZONE,
    }),
  );

  route(getPendingAccess, {}, async (request) =>
    listPendingAccess(ctx.db, await scopeOf(request, request.query.username), ctx.config.PORTAL_TIME_ZONE),
  );

  route(getAvailableRoles, {}, async (request) =>
    listAvailableRoles(
      ctx.db,
      await scopeOf(request, request.query.username),
      request.query.showAll === 'true',
    ),
  );

  route(requestAccess, {}, async (request) =>
    changeAccess({
      ctx,
      actor: request.account,
      operation: 'Add',
      ...request.body,
      clientAddress: request.ip,
    }),
  );

  route(removeAccess, {}, async (request) =>
    changeAccess({
      ctx,
      actor: request.account,
      operation: 'Remove',
      ...request.body,
      clientAddress: request.ip,
    }),
  );

  route(cancelPendingCall, {}, async (request) => {
    await cancelPendingAccess({ ctx, actor: request.account, ...request.body, clientAddress: request.ip });
    return { success: true };
  });

  route(extendAccessCall, {}, async (request) =>
    extendAccess({ ctx, actor: request.account, ...request.body, clientAddress: request.ip }),
  );

  route(setAccessEndCall, {}, async (request) =>
    setAccessEnd({ ctx, actor: request.account, ...request.body, clientAddress: request.ip }),
  );

  route(grantEmergencyAccessCall, {}, async (request) =>
    grantEmergencyAccess({ ctx, actor: request.account, ...request.body, clientAddress: request.ip }),
  );

  route(reportDepartureCall, {}, async (request) =>
    reportDeparture({ ctx, actor: request.account, ...request.body, clientAddress: request.ip }),
  );
};
