import { api, terminateVendorsBody, terminateVendorsResponse } from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/app-context';
import { createGuards } from '../../http/guards';
import { terminateVendors } from './terminate-vendors';

/** Room for the cap of 10,000 addresses of up to 255 characters each, quoted and separated. */
const BODY_LIMIT = 3 * 1024 * 1024;

export const terminateVendorsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);

  app.post(
    api.terminateVendors,
    {
      bodyLimit: BODY_LIMIT,
      schema: { body: terminateVendorsBody, response: { 200: terminateVendorsResponse } },
      onRequest: [guards.requireLogin, guards.requireEmployeeBrm],
      preHandler: [guards.requireIdentityService],
    },
    async (request) =>
      terminateVendors({
        ctx,
        actor: request.account!,
        emails: request.body.emails,
        dryRun: request.body.dryRun ?? false,
        clientAddress: request.ip,
        log: request.log,
      }),
  );
};
