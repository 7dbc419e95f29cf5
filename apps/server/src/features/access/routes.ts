import {
  accessChangeResponse,
  accessQuery,
  accessRequestBody,
  api,
  availableRolesQuery,
  availableRolesResponse,
  cancelPendingBody,
  cancelPendingResponse,
  currentAccessResponse,
  pendingAccessResponse,
  removeAccessBody,
} from '@pra/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditingDenials } from '../../identity/audit';
import type { AppContext } from '../../platform/app-context';
import { createGuards } from '../../http/guards';
import { cancelPendingAccess } from './cancel-pending';
import { changeAccess } from './change-access';
import { listAvailableRoles, listCurrentAccess, listPendingAccess } from './list-access';
import { resolveScope } from './scope';

/**
 * Manage Access: a vendor's own roles (its changes are requests for the BRMs), or another vendor's
 * roles managed by a BRM or admin (changed at once, in the organizations it manages).
 */
export const accessRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);
  // Signed in (401) as a vendor, BRM or admin (403), before the query or body is read.
  const reading = { onRequest: [guards.requireLogin, guards.requireVendorOrManager] };
  const changing = { ...reading, preHandler: [guards.requireIdentityService] };
  /** Whose access a listing shows; a refused name is audited as the changes' refusals are. */
  const scopeOf = (request: FastifyRequest, username: string) =>
    auditingDenials(ctx.db, (deny) =>
      resolveScope(ctx.db, request.account!, username, {
        deny,
        action: 'access.view',
        clientAddress: request.ip,
      }),
    );

  app.get(
    api.currentAccess,
    { schema: { querystring: accessQuery, response: { 200: currentAccessResponse } }, ...reading },
    async (request) => listCurrentAccess(ctx.db, await scopeOf(request, request.query.username)),
  );

  app.get(
    api.pendingAccess,
    { schema: { querystring: accessQuery, response: { 200: pendingAccessResponse } }, ...reading },
    async (request) => listPendingAccess(ctx.db, await scopeOf(request, request.query.username)),
  );

  app.get(
    api.availableRoles,
    {
      schema: { querystring: availableRolesQuery, response: { 200: availableRolesResponse } },
      ...reading,
    },
    async (request) =>
      listAvailableRoles(
        ctx.db,
        await scopeOf(request, request.query.username),
        request.query.showAll === 'true',
      ),
  );

  app.post(
    api.requestAccess,
    { schema: { body: accessRequestBody, response: { 200: accessChangeResponse } }, ...changing },
    async (request) =>
      changeAccess({
        ctx,
        actor: request.account!,
        operation: 'Add',
        ...request.body,
        clientAddress: request.ip,
      }),
  );

  app.post(
    api.removeAccess,
    { schema: { body: removeAccessBody, response: { 200: accessChangeResponse } }, ...changing },
    async (request) =>
      changeAccess({
        ctx,
        actor: request.account!,
        operation: 'Remove',
        ...request.body,
        clientAddress: request.ip,
      }),
  );

  app.post(
    api.cancelPendingAccess,
    { schema: { body: cancelPendingBody, response: { 200: cancelPendingResponse } }, ...changing },
    async (request) => {
      await cancelPendingAccess({ ctx, actor: request.account!, ...request.body, clientAddress: request.ip });
      return { success: true };
    },
  );
};
