import {
  assignSponsor,
  getMySponsors,
  getSponsorship,
  setLeaving as setLeavingEndpoint,
  transferResponsibilities,
} from '@pra/contracts/endpoints/departure';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { exportSponsorship } from '@pra/contracts/endpoints/reports';
import { readerOf, sendCsvReport } from '../../http/csv-report';
import {
  assignSponsors,
  mySponsors,
  setLeaving,
  sponsorshipCsv,
  sponsorshipPage,
  transfer,
} from './departure';

/** Dormant accounts, sponsors of record, BRM departure (GOVERNANCE.md §6.7). */
export const departureRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(setLeavingEndpoint, {}, async (request) => {
    await setLeaving(ctx, request.account, {
      personId: request.params.id,
      body: request.body,
      clientAddress: request.ip,
    });
    return { success: true };
  });

  route(transferResponsibilities, {}, async (request) =>
    transfer(ctx, request.account, {
      personId: request.params.id,
      dryRun: request.body.dryRun,
      successors: request.body.successors,
      notifyVendors: request.body.notifyVendors,
      clientAddress: request.ip,
    }),
  );

  route(getSponsorship, {}, async (request) => sponsorshipPage(ctx.db, request.query));

  route(assignSponsor, {}, async (request) => ({
    success: true as const,
    changed: await assignSponsors(ctx, request.account, { body: request.body, clientAddress: request.ip }),
  }));

  route(exportSponsorship, {}, async (request, reply) =>
    sendCsvReport(
      ctx.db,
      readerOf(request),
      reply,
      sponsorshipCsv(ctx.db, request.query, { now: ctx.clock.now(), zone: ctx.config.PORTAL_TIME_ZONE }),
    ),
  );

  route(getMySponsors, {}, async (request) => mySponsors(ctx, request.account));
};
