import * as calls from '@pra/contracts/endpoints/activity-review';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { listReviews, reviewOf, signOff } from './activity-review';

/** The weekly activity review's calls (GOVERNANCE.md §9.2): admins read and sign off, auditors read. */
export const activityReviewRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  const zone = ctx.config.PORTAL_TIME_ZONE;

  route(calls.listActivityReviews, {}, async () => listReviews(ctx.db, zone));

  route(calls.getActivityReview, {}, async (request) => reviewOf(ctx.db, request.params.week, zone));

  route(calls.signOffActivityReview, {}, async (request) => {
    const { account } = request;
    await signOff(ctx.db, {
      actor: { id: account.id, username: account.username },
      clientAddress: request.ip,
      week: request.params.week,
      note: request.body.note,
      at: ctx.clock.now(),
      zone,
    });
    return { success: true };
  });
};
