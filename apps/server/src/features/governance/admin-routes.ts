import * as calls from '@pra/contracts/endpoints/governance';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { isAuditor } from '../../store/account-kinds';
import { listPolicies, savePolicy } from './policies';
import { accessEndingCsv, accessEndingPage } from './access-ending';
import { exportSignInStrength } from '@pra/contracts/endpoints/reports';
import { readerOf, sendCsvReport } from '../../http/csv-report';
import { signInStrengthCsv, signInStrengthPage } from './sign-in-strength';

/**
 * Governance's admin calls (GOVERNANCE.md §2.3, §3.2): the risk tiers' policies (read by admins
 * and auditors, changed by admins) and the Access ending report with its CSV.
 */
export const governanceAdminRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  const time = () => ({ now: ctx.clock.now(), zone: ctx.config.PORTAL_TIME_ZONE });

  route(calls.getGovernancePolicies, {}, async (request) =>
    listPolicies(ctx.db, !isAuditor(request.account)),
  );

  route(calls.saveGovernancePolicy, {}, async (request) => {
    const { account } = request;
    const actor = { id: account.id, username: account.username, clientAddress: request.ip };
    await ctx.db.transaction().execute((tx) => savePolicy(tx, actor, request.body, ctx.clock.now()));
    return { success: true };
  });

  route(calls.getAccessEnding, {}, async (request) => accessEndingPage(ctx.db, request.query, time()));

  // GOVERNANCE.md §7.1: the auditor's view of how many vendors sign in phishing-resistantly.
  route(calls.getSignInStrength, {}, async (request) => signInStrengthPage(ctx.db, request.query, time()));

  route(exportSignInStrength, {}, async (request, reply) =>
    sendCsvReport(ctx.db, readerOf(request), reply, signInStrengthCsv(ctx.db, request.query, time())),
  );

  route(calls.exportAccessEnding, {}, async (request, reply) =>
    sendCsvReport(ctx.db, readerOf(request), reply, accessEndingCsv(ctx.db, request.query, time())),
  );
};
