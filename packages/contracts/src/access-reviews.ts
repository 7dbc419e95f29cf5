import { z } from 'zod';
import { plainText } from './text-fields';

// Access reviews (GOVERNANCE.md §4): review cycles, one campaign per organization, the BRMs'
// decisions, the vendors' answers, the preview of the default action and the evidence.

export const reviewMessages = {
  heading: 'Access Reviews',
  subtitle: (due: string) =>
    `Confirm which vendors still need access to your organizations. Decisions are due by ${due}.`,
  welcomeCard: 'Confirm which vendors still need access',
  tab: (org: string, due: string) => `${org} · due ${due}`,
  progress: (decided: number, total: number) => `${decided} of ${total} decided`,
  removeDefault: (due: string) => `If no decision is made by ${due}, access will be removed automatically.`,
  empty: 'No access reviews are open for your organizations.',
  keepSelected: 'Keep Selected',
  removeSelected: 'Remove Selected',
  reason: 'Reason',
  reasonRequired: 'Enter a reason',
  keepUntilRequired: 'Choose the date access is kept until',
  keepUntilLater: 'Keep until cannot be after the current end of access',
  keepUntilPast: 'Keep until must be a later day',
  lastAccess: (name: string) =>
    `${name} has no other access. Their account will be disabled and closed after 30 days.`,
  saved: (ok: number, failed: number) =>
    failed === 0 ? `Decisions saved for ${ok}` : `Decisions saved for ${ok} / failed for ${failed}`,
  closed: 'This access review has closed',
  notReviewer: 'You cannot decide this access review item.',
  notFound: 'Access review not found.',
  confirmHeading: 'Confirm your access',
  confirmQuestion: (org: string) => `Do you still need access to ${org}?`,
  stillNeeded: 'Yes, I still need it',
  noLongerNeeded: 'No, I no longer need it',
  sendAnswer: 'Send Answer',
  answerSent: 'Thank you, your answer was sent to your sponsor',
  welcomeAlert: (org: string) => `Your access to ${org} is being reviewed.`,
  noConfirmation: 'No access of yours is being reviewed.',
  adminHeading: 'Reviews',
  startCycle: 'Start Review Cycle',
  preview: 'Preview',
  startButton: 'Start Cycle',
  noOrganizations: 'Choose at least one organization',
  noGrants: 'None of the chosen organizations has vendor access to review',
  alreadyOpen: (org: string) => `${org} already has an access review open`,
  notCancellable: 'Only a scheduled or open access review can be cancelled',
  notClosable: 'Only an open access review can be closed',
  notRemindable: 'Only an open access review can be reminded',
  cancelReasonRequired: 'Enter a reason for cancelling',
  notClosedYet: 'The evidence is ready once the access review has closed',
} as const;

export const reviewDecision = z.enum(['keep', 'keepUntil', 'remove']);
export type ReviewDecision = z.infer<typeof reviewDecision>;
export const reviewDefaultAction = z.enum(['remove', 'keep', 'recommendation']);
export type ReviewDefaultActionName = z.infer<typeof reviewDefaultAction>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD');
const reason = plainText({ max: 255 });

export const decideBody = z.object({
  itemIds: z.array(z.string().uuid()).min(1).max(500),
  decision: reviewDecision,
  keepUntil: isoDate.optional(),
  reason: reason.optional(),
});
export type DecideBody = z.infer<typeof decideBody>;

export const decideResult = z.object({
  success: z.boolean(),
  message: z.string(),
  saved: z.array(z.string()),
  failed: z.array(z.object({ itemId: z.string(), error: z.string() })),
});

export const reviewItem = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  accountStatus: z.string(),
  accessSince: z.string(),
  accessEnds: z.string(),
  lastSignIn: z.string().nullable(),
  signInMethod: z.enum(['Security key', 'Authenticator app', 'None']),
  vendorSays: z.enum(['Still needed', 'No longer needed', 'No answer']),
  vendorComment: z.string().nullable(),
  recommendation: z.string(),
  decision: reviewDecision.nullable(),
  keepUntil: z.string().nullable(),
  reason: z.string().nullable(),
  otherAccess: z.number().int(),
});
export type ReviewItem = z.infer<typeof reviewItem>;

export const reviewCampaignSummary = z.object({
  id: z.string(),
  organizationId: z.string(),
  organization: z.string(),
  dueOn: z.string(),
  defaultAction: reviewDefaultAction,
  decided: z.number().int(),
  total: z.number().int(),
  escalated: z.boolean(),
});

export const reviewsQuery = z.object({
  countOnly: z.enum(['true', 'false']).optional(),
  campaignId: z.string().uuid().optional(),
  filter: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});

export const brmReviews = z.object({
  undecided: z.number().int(),
  campaigns: z.array(reviewCampaignSummary),
  /** The chosen campaign's page of items (the first campaign's when none is named). */
  items: z.array(reviewItem),
  totalItems: z.number().int(),
});
export type BrmReviews = z.infer<typeof brmReviews>;

export const accessConfirmation = z.object({
  items: z.array(
    z.object({
      itemId: z.string(),
      organization: z.string(),
      dueOn: z.string(),
      answer: z.enum(['yes', 'no']).nullable(),
      comment: z.string().nullable(),
    }),
  ),
});
export type AccessConfirmation = z.infer<typeof accessConfirmation>;

export const accessConfirmationBody = z.object({
  itemId: z.string().uuid(),
  stillNeeded: z.boolean(),
  comment: plainText({ max: 255, required: false }).optional(),
});

export const startCycleBody = z.object({
  name: plainText({ max: 120 }),
  /** Organization ids; empty or absent: all active organizations. */
  organizationIds: z.array(z.string().uuid()).max(1000).optional(),
  opensOn: isoDate.optional(),
  dueInDays: z.number().int().min(1).max(90).optional(),
  defaultAction: reviewDefaultAction,
  vendorConfirmation: z.boolean(),
  /** true: only the preview; nothing is written. */
  previewOnly: z.boolean().optional(),
});
export type StartCycleBody = z.infer<typeof startCycleBody>;

export const previewOrganization = z.object({
  organizationId: z.string(),
  organization: z.string(),
  items: z.number().int(),
  decided: z.number().int(),
  wouldBeRemoved: z.number().int(),
  wouldBeDisabled: z.number().int(),
  wouldBeKept: z.number().int(),
  /** One row per item the close would remove, for "Download list". */
  removals: z.array(
    z.object({
      username: z.string(),
      name: z.string(),
      email: z.string(),
      byDefault: z.boolean(),
      disablesAccount: z.boolean(),
    }),
  ),
});
export type PreviewOrganization = z.infer<typeof previewOrganization>;
export const reviewPreview = z.object({ organizations: z.array(previewOrganization) });
export type ReviewPreview = z.infer<typeof reviewPreview>;

export const startCycleResult = z.object({
  success: z.boolean(),
  cycleId: z.string().nullable(),
  preview: reviewPreview,
});

export const adminCampaign = z.object({
  id: z.string(),
  cycleId: z.string(),
  cycle: z.string(),
  organization: z.string(),
  status: z.enum(['scheduled', 'open', 'closing', 'closed', 'cancelled']),
  opensOn: z.string(),
  dueOn: z.string(),
  decidedPercent: z.number().int(),
  escalated: z.boolean(),
});
export type AdminCampaign = z.infer<typeof adminCampaign>;
export const adminReviews = z.object({
  campaigns: z.array(adminCampaign),
  /** Active organizations with no active primary BRM: InfoSec reviews their items (§4.8). */
  organizationsWithoutBrm: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** A cycle (the preview). */
export const cycleParams = z.object({ id: z.string().uuid() });
/** A campaign (its actions and evidence). */
export const campaignParams = z.object({ id: z.string().uuid() });
export const campaignActionBody = z.object({ reason: reason.optional() });
