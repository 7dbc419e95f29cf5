import { z } from 'zod';
import { multilineText } from './text-fields';

// The weekly activity review (GOVERNANCE.md §9.2, §9.4): every Monday 06:00 in the hospital's zone
// a digest of the previous Monday–Sunday's vendor-access activity, taken from the audit trail and
// kept as a snapshot; InfoSec marks it reviewed with a note.

export const activityReviewMessages = {
  heading: 'Activity Review',
  intro:
    'Each Monday a digest of the past week’s vendor-access activity is generated from the audit trail. ' +
    'Review it and record that you did, with a note.',
  empty: 'No weekly digest has been generated yet. The first one is generated on Monday at 06:00.',
  markReviewed: 'Mark Reviewed',
  note: 'Note',
  noteRequired: 'Enter a note about the review',
  reviewed: (name: string, date: string) => `Reviewed by ${name} on ${date}`,
  notReviewed: 'Not reviewed yet',
  marked: (period: string) => `The week ${period} is marked reviewed`,
  alreadyReviewed: (name: string, date: string) =>
    `This week was already marked reviewed by ${name} on ${date}.`,
  notFound: 'Weekly digest not found.',
  /** Mail A1's subject (§9.4). */
  readySubject: (period: string) => `Weekly PRA access activity review for ${period} is ready`,
  /** Mail A2's subject: the reminder after 3 days (our wording; §9.4 names only the reminder). */
  reminderSubject: (period: string) =>
    `Reminder: weekly PRA access activity review for ${period} is not reviewed yet`,
} as const;

/** A week as the screens and mails name it: "2027-03-08 to 2027-03-14" (hospital dates). */
export const periodText = (start: string, end: string) => `${start} to ${end}`;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD');

/** The sections of a digest, in the order they are shown (§9.2's list). */
export const activitySectionKeys = [
  'newGrants',
  'extensions',
  'expiries',
  'reviewDecisions',
  'reviewDefaults',
  'disables',
  'terminations',
  'failedSignIns',
  'mfaResets',
  'passkeyChanges',
  'emergencyGrants',
  'departureReports',
  'policyChanges',
  'policyAcceptances',
] as const;
export type ActivitySectionKey = (typeof activitySectionKeys)[number];

/** One audit event listed in a digest. */
export const activityEvent = z.object({
  id: z.string(),
  at: z.string(),
  action: z.string(),
  actor: z.string(),
  target: z.string(),
  organization: z.string().nullable(),
  /** The event's details as "key: value" text (never secrets: the audit trail holds none). */
  detail: z.string(),
});
export type ActivityEvent = z.infer<typeof activityEvent>;

/** How many events of one action the section holds, and the audit trail filtered to them. */
export const activityActionCount = z.object({
  action: z.string(),
  count: z.number().int(),
  link: z.string(),
});

/** Failed sign-ins and lockouts of one vendor in the week. */
export const activitySignInTally = z.object({
  username: z.string(),
  failures: z.number().int(),
  lockouts: z.number().int(),
  link: z.string(),
});

/** A reporter with two or more departure reports dismissed in the week (possible abuse, §10.2). */
export const activityRepeatedDismissal = z.object({
  reporter: z.string(),
  dismissed: z.number().int(),
  link: z.string(),
});

export const activitySection = z.object({
  key: z.enum(activitySectionKeys),
  title: z.string(),
  count: z.number().int(),
  actions: z.array(activityActionCount),
  /** The events (at most LISTED_PER_SECTION; `more` tells how many more the links show). */
  events: z.array(activityEvent),
  more: z.number().int(),
  /** failedSignIns: per vendor. */
  perVendor: z.array(activitySignInTally).optional(),
  /** failedSignIns: failures for usernames that match no account. */
  unknownUsernames: z.number().int().optional(),
  /** departureReports: reporters whose reports were dismissed more than once. */
  repeatedDismissals: z.array(activityRepeatedDismissal).optional(),
});
export type ActivitySection = z.infer<typeof activitySection>;

/** The stored snapshot (activity_reviews.digest). */
export const activityDigest = z.object({
  periodStart: isoDate,
  periodEnd: isoDate,
  zone: z.string(),
  /** The week's first instant and the next week's (exclusive), ISO. */
  from: z.string(),
  until: z.string(),
  sections: z.array(activitySection),
});
export type ActivityDigest = z.infer<typeof activityDigest>;

export const activityReviewSignOff = z.object({
  name: z.string(),
  /** The date in the hospital's zone (YYYY-MM-DD). */
  on: z.string(),
  at: z.string(),
  note: z.string(),
});

export const activityReviewSummary = z.object({
  periodStart: isoDate,
  periodEnd: isoDate,
  period: z.string(),
  generatedAt: z.string(),
  status: z.enum(['generated', 'reviewed']),
  /** Every section's count, by key. */
  total: z.number().int(),
  reviewed: activityReviewSignOff.nullable(),
});
export type ActivityReviewSummary = z.infer<typeof activityReviewSummary>;

export const activityReviewList = z.object({ reviews: z.array(activityReviewSummary) });
export type ActivityReviewList = z.infer<typeof activityReviewList>;

export const activityReviewDetail = activityReviewSummary.extend({ digest: activityDigest });
export type ActivityReviewDetail = z.infer<typeof activityReviewDetail>;

export const activityReviewParams = z.object({ week: isoDate });

export const activityReviewSignOffBody = z.object({
  /** Required (checked by the server, so the refusal reads as the spec's message). */
  note: multilineText(2000),
});
export type ActivityReviewSignOffBody = z.infer<typeof activityReviewSignOffBody>;
