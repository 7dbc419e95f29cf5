import { z } from 'zod';
import { pageOf } from './paging';

// Dormant accounts, sponsors of record and BRM departure (GOVERNANCE.md §6.7).

export { departureApi } from './paths';

export const personParams = z.object({ id: z.uuid('Not a valid id.') });

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.');

export const leavingBody = z.strictObject({
  /** The leaving date, or null to clear it. */
  leavingOn: isoDate.nullable(),
  /** Whether their BRM role ends on that date (default on). */
  endsRole: z.boolean().optional(),
});
export type LeavingBody = z.infer<typeof leavingBody>;

export const transferBody = z.strictObject({
  dryRun: z.boolean(),
  /** Successors per organization; an organization left out gets the default (backup, other BRM, InfoSec). */
  successors: z
    .array(
      z.strictObject({
        organizationId: z.uuid('Not a valid id.'),
        /** null: the Information Security team. */
        successorId: z.uuid('Not a valid id.').nullable(),
        makePrimary: z.boolean().default(true),
      }),
    )
    .max(500)
    .default([]),
  /** "Tell the vendors who their new sponsor is" (default on). */
  notifyVendors: z.boolean().default(true),
});
export type TransferBody = z.input<typeof transferBody>;

const counts = {
  pendingApprovals: z.number().int(),
  openReviewItems: z.number().int(),
  extensionRequests: z.number().int(),
  vendors: z.number().int(),
};

export const transferPlan = z.object({
  personId: z.string(),
  person: z.string(),
  dryRun: z.boolean(),
  ...counts,
  delegations: z.number().int(),
  organizations: z.array(
    z.object({
      organizationId: z.string(),
      organization: z.string(),
      successorId: z.string().nullable(),
      successor: z.string(),
      makePrimary: z.boolean(),
      ...counts,
    }),
  ),
});
export type TransferPlanResponse = z.infer<typeof transferPlan>;

export const sponsorshipGrant = z.object({
  accountId: z.string(),
  organizationId: z.string(),
  username: z.string(),
  name: z.string(),
  organization: z.string(),
  expiresAt: z.string(),
  /** The sponsor on record who no longer manages the organization; null: no sponsor. */
  formerSponsor: z.string().nullable(),
});
export type SponsorshipGrant = z.infer<typeof sponsorshipGrant>;
/** One page of the sponsorship report (Administration → Reports → Sponsorship). */
export const sponsorshipReport = pageOf(sponsorshipGrant);
export type SponsorshipReport = z.infer<typeof sponsorshipReport>;

export const assignSponsorBody = z.strictObject({
  sponsorId: z.uuid('Not a valid id.'),
  grants: z
    .array(
      z.strictObject({ accountId: z.uuid('Not a valid id.'), organizationId: z.uuid('Not a valid id.') }),
    )
    .min(1, 'Choose at least one grant.')
    .max(1000),
});
export type AssignSponsorBody = z.infer<typeof assignSponsorBody>;
export const assignSponsorResponse = z.object({ success: z.literal(true), changed: z.number().int() });

export const mySponsors = z.object({
  sponsors: z.array(
    z.object({ organization: z.string(), name: z.string().nullable(), email: z.string().nullable() }),
  ),
});
export type MySponsors = z.infer<typeof mySponsors>;

/** Their texts (§6.2). */
export const departureMessages = {
  transferred: (name: string) => `Responsibilities of ${name} transferred`,
  sponsorNotBrm: 'The sponsor must be an active BRM of each organization chosen.',
} as const;
