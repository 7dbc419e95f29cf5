import {
  cancelTerminateJob as cancelJobCall,
  startTerminateJob as startJobCall,
  terminateJob as jobCall,
  terminateVendors as terminateVendorsCall,
} from '@pra/contracts/endpoints/terminate-vendors';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { cancelTerminateJob, startTerminateJob, terminateJobView } from './terminate-job';
import { terminateVendors } from './terminate-vendors';

/** Room for the cap of 10,000 addresses of up to 255 characters each, quoted and separated. */
const BODY_LIMIT = 3 * 1024 * 1024;

export const terminateVendorsRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(terminateVendorsCall, { bodyLimit: BODY_LIMIT }, async (request) =>
    terminateVendors({
      ctx,
      actor: request.account,
      emails: request.body.emails,
      dryRun: request.body.dryRun ?? false,
      clientAddress: request.ip,
      log: request.log,
    }),
  );

  route(startJobCall, { bodyLimit: BODY_LIMIT }, async (request) =>
    startTerminateJob(ctx, request.account, request.body.emails, request.ip),
  );
  route(jobCall, {}, async (request) =>
    terminateJobView(ctx.db, request.account, request.params.id, request.query.from ?? 0),
  );
  route(cancelJobCall, {}, async (request) => cancelTerminateJob(ctx, request.account, request.params.id));
};
