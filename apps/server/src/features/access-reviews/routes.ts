import {
  answerAccessConfirmation,
  decideAccessReviews,
  getAccessConfirmation,
  getAccessReviews,
  getAdminReviews,
  previewReviewCycle,
  reviewCampaignActions,
  reviewEvidenceCsv,
  reviewEvidenceJson,
  startReviewCycle,
} from '@pra/contracts/endpoints/access-reviews';
import { reviewMessages } from '@pra/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import {
  adminCampaigns,
  answerConfirmation,
  brmReviews,
  campaignAction,
  confirmationOf,
  decide,
  evidenceOf,
  previewCycle,
  reviewSweep,
  startCycle,
} from '../../identity/governance/reviews';

/** Access reviews (GOVERNANCE.md §4.7): the BRMs' decisions, the vendors' answers, the admins' cycles. */
export const accessReviewRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  const sweepOf = (request: FastifyRequest) =>
    reviewSweep({ db: ctx.db, clock: ctx.clock, config: ctx.config, log: request.log });
  const actorOf = (request: FastifyRequest & { account: { id: string; username: string } }) => ({
    id: request.account.id,
    username: request.account.username,
  });

  route(getAccessReviews, {}, async (request) =>
    brmReviews(await sweepOf(request), request.account, request.query),
  );

  route(decideAccessReviews, {}, async (request) => {
    const { saved, failed } = await decide(await sweepOf(request), request.account, request.body, request.ip);
    return {
      success: failed.length === 0,
      message: reviewMessages.saved(saved.length, failed.length),
      saved,
      failed,
    };
  });

  route(getAccessConfirmation, {}, async (request) =>
    confirmationOf(await sweepOf(request), request.account),
  );

  route(answerAccessConfirmation, {}, async (request) => {
    await answerConfirmation(await sweepOf(request), request.account, request.body, request.ip);
    return { success: true };
  });

  route(getAdminReviews, {}, async (request) => adminCampaigns(await sweepOf(request)));

  route(startReviewCycle, {}, async (request) => ({
    success: true,
    ...(await startCycle(await sweepOf(request), actorOf(request), request.body)),
  }));

  route(previewReviewCycle, {}, async (request) =>
    previewCycle(await sweepOf(request), request.params.id, actorOf(request)),
  );

  for (const action of ['remind', 'close', 'cancel'] as const) {
    route(reviewCampaignActions[action], {}, async (request) => {
      await campaignAction(
        await sweepOf(request),
        actorOf(request),
        request.params.id,
        action,
        request.body.reason,
      );
      return { success: true };
    });
  }

  route(reviewEvidenceCsv, {}, async (request, reply) => {
    const { body } = await evidenceOf(await sweepOf(request), request.params.id, actorOf(request), 'csv');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="evidence-${request.params.id}.csv"`)
      .send(body);
  });

  route(reviewEvidenceJson, {}, async (request, reply) => {
    const { body } = await evidenceOf(await sweepOf(request), request.params.id, actorOf(request), 'json');
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="evidence-${request.params.id}.json"`)
      .send(body);
  });
};
