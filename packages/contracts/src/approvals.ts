import { calendarDate } from './calendar-date';
import { departureItem, emergencyItem } from './emergencies';
import { z } from 'zod';
import { pageOf, pageQuery } from './paging';
import { successResponse } from './system';
import { commentText } from './text-fields';

/** One approval task as the approvals page lists it (spec section 3, "Pending approval"). */
export const pendingApproval = z.object({
  requestId: z.string(),
  workItemId: z.string(),
  /** What is asked, e.g. "New Account for jane.doe@acme.example". */
  workItemName: z.string(),
  type: z.enum([
    'New Account',
    'Add Access',
    'Remove Access',
    'Extend Access',
    'Emergency Access',
    'Departure Reported',
  ]),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  /** Username of the account, once there is one. */
  name: z.string(),
  /** Organization name. */
  org: z.string(),
  /** ISO date-time the request was made. */
  created: z.string(),
  /** Whether the account's activation code was claimed (false until activation). */
  praclaimed: z.string(),
  jobTitle: z.string(),
  manager: z.string(),
  description: z.string(),
  comment: z.string(),
  commentAuthor: z.string(),
  /**
   * An addition to the spec's fields: whether the caller may approve or reject the item, as the
   * server's request policy says (the page disables the buttons otherwise, without a rule of its own).
   */
  canDecide: z.boolean(),
  /** Additions (approval routing, GOVERNANCE.md §5.7): the decision deadline (ISO date-time). */
  dueAt: z.string(),
  /** Whole days left before the deadline in the hospital's time zone (0: due today), computed by the server. */
  dueInDays: z.number().int(),
  /** The item was forwarded and reaches the caller as a backup BRM or the InfoSec team. */
  forwarded: z.boolean(),
  /** The BRM for whom the caller decides it (an Away and Backup delegation), or null. */
  onBehalfOf: z.string().nullable(),
  /** What happened to the item so far: sent, reminded, forwarded, delegated, expired. */
  history: z.array(
    z.object({
      at: z.string(),
      event: z.enum(['sent', 'reminded', 'forwarded', 'delegated', 'expired']),
      to: z.string(),
    }),
  ),
  /**
   * Additions (time-limited access, GOVERNANCE.md §3.2): for an Extend Access item, the grant's
   * current end and the end asked for (YYYY-MM-DD, hospital time; null when there is none); for
   * items that grant access, the organization's end-date policy the Approve dialog offers ("Access
   * ends on": its default, the latest allowed, and the tier's duration), null for Remove Access.
   */
  currentEndsOn: z.string().nullable().optional(),
  requestedUntilOn: z.string().nullable().optional(),
  accessEnds: z
    .object({ defaultDate: z.string(), maxDate: z.string(), accessDays: z.number().int() })
    .nullable()
    .optional(),
  /**
   * Additions (GOVERNANCE.md §10): an Emergency Access follow-up (Acknowledge or Remove now) and a
   * Departure Reported item (Confirm Departure or Dismiss); null for other types.
   */
  emergency: emergencyItem.nullable().optional(),
  departure: departureItem.nullable().optional(),
});
export type PendingApproval = z.infer<typeof pendingApproval>;

/** GET /api/brm/pending-approvals */
export const pendingApprovalsResponse = z.object({ pendingApprovals: z.array(pendingApproval) });
export type PendingApprovalsResponse = z.infer<typeof pendingApprovalsResponse>;

/** The sortable columns of the approvals table (spec: every column but Actions). */
export const approvalSortKeys = ['firstname', 'lastname', 'email', 'type', 'org', 'created'] as const;
export type ApprovalSortKey = (typeof approvalSortKeys)[number];

/**
 * GET /api/brm/pending-approvals: the list, or only its count with `getCountOnly=true`, or one
 * page of it with paging parameters (page, size, filter over name, email and organization, sort
 * by a column, newest first without one).
 */
export const pendingApprovalsQuery = pageQuery(approvalSortKeys).extend({
  getCountOnly: z.literal('true').optional(),
});

/** The paged answer of GET /api/brm/pending-approvals; `total` is every item the caller may see. */
export const pendingApprovalsPage = pageOf(pendingApproval);
export type PendingApprovalsPage = z.infer<typeof pendingApprovalsPage>;
export type PendingApprovalsQuery = z.infer<typeof pendingApprovalsQuery>;

/**
 * GET /api/brm/pending-approvals?getCountOnly=true: the count-only answer, the number of pending
 * items the caller may decide.
 */
export const pendingApprovalsCountResponse = z.object({ count: z.number().int().min(0) });
export type PendingApprovalsCountResponse = z.infer<typeof pendingApprovalsCountResponse>;

export const decision = z.enum(['APPROVE', 'DENY']);
export type Decision = z.infer<typeof decision>;

/**
 * POST /api/brm/pending-approvals/approve-or-deny. `workItemId` (an addition to the spec's
 * fields) picks one item of a request spanning several organizations; without it every item of
 * the request that the caller may decide is decided.
 */
export const approveOrDenyBody = z
  .strictObject({
    decision,
    requestId: z.string().uuid('Unexpected error occurred: no pending approval selected'),
    workItemId: z.string().uuid().optional(),
    comment: commentText.default(''),
    /**
     * Governance (additive): the date granted access ends (YYYY-MM-DD, hospital time) for New
     * Account and Add Access items; the organization's policy default when absent; ignored for
     * Remove Access. Refused past the policy's cap: "The end date must be in the future and no
     * later than {maxDate}".
     */
    accessEndsOn: calendarDate.optional(),
  })
  .refine((body) => body.decision === 'APPROVE' || body.comment.length > 0, {
    message: 'A justification is required to reject a request',
    path: ['comment'],
  });
export type ApproveOrDenyBody = z.input<typeof approveOrDenyBody>;

export const approveOrDenyResponse = successResponse;
export type ApproveOrDenyResponse = z.infer<typeof approveOrDenyResponse>;

export const approvalMessages = {
  approved: 'Request has been successfully approved',
  denied: 'Request has been successfully denied',
  noneSelected: 'Unexpected error occurred: no pending approval selected',
  empty: 'No approval tasks found',
  /** A BRM acting for an organization it does not manage: deciding, or registering on a vendor's behalf. */
  notYourOrganization: 'You can only act for the organizations you manage.',
  alreadyDecided: 'This request has already been decided.',
  requestNotFound: 'This request was not found.',
  /** GOVERNANCE.md §5.8: a registration pending when its organization was deactivated. */
  organizationInactive: (organization: string) => `${organization} is not active`,
} as const;
