import {
  accessConfirmation,
  accessConfirmationBody,
  adminReviews,
  brmReviews,
  campaignActionBody,
  campaignParams,
  cycleParams,
  decideBody,
  decideResult,
  reviewPreview,
  reviewsQuery,
  startCycleBody,
  startCycleResult,
} from '../access-reviews';
import { endpoint, media } from '../endpoint';
import { reviewsApi } from '../paths';
import { successResponse } from '../system';

const tag = 'access-reviews' as const;

export const getAccessReviews = endpoint({
  tag,
  callers: 'brmOrAdmin',
  method: 'GET',
  path: reviewsApi.brm,
  operationId: 'getAccessReviews',
  tokenScope: 'reviews:read',
  summary:
    'The open access reviews the caller may decide, a page of one campaign’s items, the undecided count',
  query: reviewsQuery,
  response: { 200: brmReviews },
});

export const decideAccessReviews = endpoint({
  tag,
  callers: 'brmOrAdmin',
  method: 'POST',
  path: reviewsApi.decide,
  operationId: 'decideAccessReviews',
  tokenScope: 'reviews:write',
  summary: 'Keep, keep until a date, or remove (with a reason) access review items',
  body: decideBody,
  response: { 200: decideResult },
});

export const getAccessConfirmation = endpoint({
  tag,
  callers: 'vendor',
  method: 'GET',
  path: reviewsApi.confirmation,
  operationId: 'getAccessConfirmation',
  summary: 'The vendor’s access being reviewed and their answers',
  response: { 200: accessConfirmation },
});

export const answerAccessConfirmation = endpoint({
  tag,
  callers: 'vendor',
  method: 'POST',
  path: reviewsApi.confirmation,
  operationId: 'answerAccessConfirmation',
  summary: 'The vendor answers “Do you still need access?”',
  body: accessConfirmationBody,
  response: { 200: successResponse },
});

export const getAdminReviews = endpoint({
  tag,
  callers: 'admin',
  method: 'GET',
  path: reviewsApi.admin,
  operationId: 'getAdminReviews',
  tokenScope: 'review-cycles:read',
  summary: 'Every review campaign with its state and progress',
  response: { 200: adminReviews },
});

export const startReviewCycle = endpoint({
  tag,
  callers: 'admin',
  method: 'POST',
  path: reviewsApi.admin,
  operationId: 'startReviewCycle',
  tokenScope: 'review-cycles:write',
  summary: 'Starts a review cycle (one campaign per organization), or only previews it',
  body: startCycleBody,
  response: { 200: startCycleResult },
});

export const previewReviewCycle = endpoint({
  tag,
  callers: 'admin',
  method: 'GET',
  path: reviewsApi.preview,
  operationId: 'previewReviewCycle',
  tokenScope: 'review-cycles:read',
  summary: 'What closing the cycle’s open campaigns now would remove and disable (changes nothing)',
  params: cycleParams,
  response: { 200: reviewPreview },
});

/* @__NO_SIDE_EFFECTS__ */
function campaignAction(action: 'remind' | 'close' | 'cancel', summary: string) {
  return endpoint({
    tag,
    callers: 'admin',
    method: 'POST',
    path: reviewsApi[action],
    operationId: `${action}ReviewCampaign`,
    tokenScope: 'review-cycles:write',
    summary,
    params: campaignParams,
    body: campaignActionBody,
    response: { 200: successResponse },
  });
}

export const remindReviewCampaign = campaignAction(
  'remind',
  'Send Reminder Now: R2 to its BRMs, R4 to unanswered vendors',
);
export const closeReviewCampaign = campaignAction(
  'close',
  'Close Now: applies the decisions and the default',
);
export const cancelReviewCampaign = campaignAction(
  'cancel',
  'Cancel (a reason required): nothing applied, items withdrawn',
);

/** The three campaign actions by name (the Reviews page and the CLI pick one). */
export const reviewCampaignActions = {
  remind: remindReviewCampaign,
  close: closeReviewCampaign,
  cancel: cancelReviewCampaign,
} as const;

export const reviewEvidenceCsv = endpoint({
  tag,
  callers: 'adminOrAuditor',
  method: 'GET',
  path: reviewsApi.evidenceCsv,
  operationId: 'reviewEvidenceCsv',
  tokenScope: 'review-cycles:read',
  summary: 'A closed campaign’s evidence, one row per item',
  params: campaignParams,
  response: { 200: media('text/csv', 'The evidence, one line per item') },
});

export const reviewEvidenceJson = endpoint({
  tag,
  callers: 'adminOrAuditor',
  method: 'GET',
  path: reviewsApi.evidenceJson,
  operationId: 'reviewEvidenceJson',
  tokenScope: 'review-cycles:read',
  summary: 'A closed campaign’s manifest: settings, previews, counts, the CSV’s SHA-256, audit event ids',
  params: campaignParams,
  response: { 200: media('application/json', 'The manifest') },
});
