import { Readable } from 'node:stream';
import * as calls from '@pra/contracts/endpoints/governance';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { isAuditor } from '../../store/account-kinds';
import { listPolicies, savePolicy } from './policies';
import { accessEndingCsv, accessEndingFileName, accessEndingPage } from './access-ending';
import { signInStrengthByOrganization } from '../../store/webauthn';

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
  route(calls.getSignInStrength, {}, async () => {
    const rows = await signInStrengthByOrganization(ctx.db, ctx.clock.now());
    return {
      organizations: rows.map((r) => ({
        id: r.id,
        name: r.name,
        riskTier: r.risk_tier,
        vendors: r.vendors,
        phishingResistant: r.with_key,
        share: r.vendors > 0 ? r.with_key / r.vendors : 0,
      })),
    };
  });

  route(calls.exportAccessEnding, {}, async (request, reply) => {
    const at = time();
    const lines = accessEndingCsv(ctx.db, request.query, at);
    // The first batch is read before any header is sent: its failure is an answer, not a cut file.
    const header = await lines.next();
    const first = await lines.next();
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${accessEndingFileName(request.query, at)}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(prepend([header, first], lines)));
  });
};

async function* prepend(
  taken: IteratorResult<string>[],
  rest: AsyncGenerator<string>,
): AsyncGenerator<string> {
  for (const item of taken) if (!item.done) yield item.value;
  if (taken.every((item) => !item.done)) yield* rest;
}
