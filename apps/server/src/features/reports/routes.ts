import * as calls from '@pra/contracts/endpoints/reports';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { organizationNames } from '../../store/reports';
import { readerOf, sendCsvReport } from '../../http/csv-report';
import { dormantCsv, dormantPage, evidenceCampaignsPage, vendorAccessCsv, vendorAccessPage } from './reports';

/**
 * Administration → Reports (GOVERNANCE.md §9.2), for admins and auditors: Vendor Access, Dormant
 * and Disabled, the Sponsorship and Sign-in Strength CSVs, the Review Evidence campaigns. The
 * Access Ending report is governance's (features/governance), the evidence files the reviews'.
 * A long CSV reads on long work's own connection, never holding one of the requests' pool.
 */
export const reportRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  const time = () => ({ now: ctx.clock.now(), zone: ctx.config.PORTAL_TIME_ZONE });

  route(calls.getVendorAccess, {}, async (request) => vendorAccessPage(ctx.db, request.query, time()));
  route(calls.exportVendorAccess, {}, async (request, reply) =>
    sendCsvReport(ctx.db, readerOf(request), reply, vendorAccessCsv(ctx.longWorkDb, request.query, time())),
  );

  route(calls.getDormant, {}, async (request) => dormantPage(ctx.db, request.query, time()));
  route(calls.exportDormant, {}, async (request, reply) =>
    sendCsvReport(ctx.db, readerOf(request), reply, await dormantCsv(ctx.longWorkDb, request.query, time())),
  );

  route(calls.getReportOrganizations, {}, async () => ({ organizations: await organizationNames(ctx.db) }));

  route(calls.getReviewEvidenceCampaigns, {}, async (request) =>
    evidenceCampaignsPage(ctx.db, request.query),
  );
};
