import {
  activityReviewDetail,
  activityReviewList,
  activityReviewParams,
  activityReviewSignOffBody,
} from '../activity-review';
import { endpoint } from '../endpoint';
import { activityReviewApi } from '../paths';
import { successResponse } from '../system';

// The weekly activity review (GOVERNANCE.md §9.2, §9.4). Admins read and sign off; auditors (admins
// with the auditor flag, and reports-only auditors) read, and their sign-off is refused like every
// change.

const admin = { tag: 'activity-review', callers: 'admin' } as const;
const reader = { tag: 'activity-review', callers: 'adminOrAuditor' } as const;

export const listActivityReviews = endpoint({
  ...reader,
  method: 'GET',
  path: activityReviewApi.list,
  operationId: 'listActivityReviews',
  tokenScope: 'reports:read',
  summary: 'The weekly activity digests, newest first, with their sign-off',
  response: { 200: activityReviewList },
});

export const getActivityReview = endpoint({
  ...reader,
  method: 'GET',
  path: activityReviewApi.week,
  operationId: 'getActivityReview',
  tokenScope: 'reports:read',
  summary: 'One week’s digest (counts, lists, audit-trail links) as it was generated',
  params: activityReviewParams,
  response: { 200: activityReviewDetail },
});

export const signOffActivityReview = endpoint({
  ...admin,
  method: 'POST',
  path: activityReviewApi.signOff,
  operationId: 'signOffActivityReview',
  tokenScope: 'reports:write',
  summary: 'Mark Reviewed: records who reviewed the week’s digest, when, and their note (once)',
  params: activityReviewParams,
  body: activityReviewSignOffBody,
  response: { 200: successResponse },
});
