import { z } from 'zod';
import { successResponse } from './system';
import { plainText } from './text-fields';

// Approval routing (GOVERNANCE.md §5): Away and Backup delegations, primary and backup BRMs.

/** The longest Away and Backup period, in days (midPoint deputies are limited in time). */
export const DELEGATION_MAX_DAYS = 90;

/** The delegate choice that sends approvals to the Information Security team (the admins). */
export const INFOSEC_DELEGATE = 'infosec';

export const routingMessages = {
  heading: 'Away and Backup',
  intro: 'While I am away, send my approvals and access reviews to:',
  infosec: 'Information Security team',
  from: 'From',
  until: 'Until',
  reason: 'Reason',
  movePending: 'Also move my pending items',
  save: 'Save',
  endNow: 'End Now',
  welcomeCard: 'Away? Send your approvals to a backup',
  status: (delegate: string, until: string) => `${delegate} handles your approvals until ${until}.`,
  scheduled: (delegate: string, from: string, until: string) =>
    `${delegate} will handle your approvals from ${from} until ${until}.`,
  notSharing: 'Choose a BRM of your organizations or the Information Security team',
  tooLong: `The period can be at most ${DELEGATION_MAX_DAYS} days`,
  self: 'You cannot delegate to yourself',
  untilBeforeFrom: 'The period must end on or after its first day',
  fromInPast: 'The period cannot start in the past',
  badDate: 'Enter a date as YYYY-MM-DD',
  saved: 'Your approvals will go to your backup as set.',
  ended: 'Your delegation has ended.',
  noDelegation: 'You have no delegation to end.',
  notBrmOfOrganization: 'This person is not a BRM of that organization.',
  unreachableHeading: 'Organizations without a reachable approver',
} as const;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, routingMessages.badDate);

/** PUT /api/brm/delegation */
export const delegationBody = z.strictObject({
  /** A BRM's account id, or "infosec". */
  delegate: z.union([z.literal(INFOSEC_DELEGATE), z.uuid(routingMessages.notSharing)]),
  from: isoDate,
  until: isoDate,
  reason: plainText({ max: 500, required: false }).default(''),
  movePending: z.boolean().default(true),
});
export type DelegationBody = z.input<typeof delegationBody>;

export const delegation = z.object({
  id: z.string(),
  /** The delegate's account id, or "infosec". */
  delegate: z.string(),
  delegateName: z.string(),
  /** Calendar dates in the hospital's time zone, both days included. */
  from: z.string(),
  until: z.string(),
  reason: z.string(),
  movePending: z.boolean(),
  status: z.enum(['scheduled', 'active']),
});
export type Delegation = z.infer<typeof delegation>;

/** GET /api/brm/delegation: the open delegation, and whom the BRM may choose. */
export const delegationState = z.object({
  delegation: delegation.nullable(),
  choices: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Today in the hospital's time zone (the form's first day by default). */
  today: z.string(),
});
export type DelegationState = z.infer<typeof delegationState>;

export const delegationSaved = successResponse.extend({ delegation });

/** PUT /api/admin/people/:id/organizations/:orgId */
export const assignmentKindBody = z.strictObject({ kind: z.enum(['primary', 'backup']) });
export type AssignmentKindBody = z.infer<typeof assignmentKindBody>;
export const assignmentKindParams = z.object({
  id: z.uuid('Not a valid id.'),
  orgId: z.uuid('Not a valid id.'),
});

/** GET /api/admin/approval-routing */
export const routingOverview = z.object({
  assignments: z.array(
    z.object({
      personId: z.string(),
      organizationId: z.string(),
      organization: z.string(),
      kind: z.enum(['primary', 'backup']),
    }),
  ),
  /** Active organizations with no active primary BRM, or whose primary BRMs are all away with no reachable delegate. */
  unreachable: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type RoutingOverview = z.infer<typeof routingOverview>;
