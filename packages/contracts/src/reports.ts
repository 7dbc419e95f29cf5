import { z } from 'zod';
import { calendarDate } from './calendar-date';
import { pageOf, pageQuery } from './paging';

// Administration → Reports (GOVERNANCE.md §9.2): admins and auditors read each report one server
// page at a time and download it as CSV (formula cells neutralised, every export audited
// `report.export` with the report, its filters and the row count).

export const reportMessages = {
  organization: 'Not a valid organization id.',
  from: 'from must be a date as YYYY-MM-DD',
  to: 'to must be a date as YYYY-MM-DD',
  range: 'from must be on or before to',
  rangeTooLong: 'The period may be at most 3 years',
  dormantKind: 'kind must be one of: warned, disabled, neverActivated',
  download: 'Download CSV',
} as const;

/** The longest period the Vendor Access report covers, in days. */
export const MAX_REPORT_DAYS = 3 * 366;

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

// ---- Vendor Access (§9.2): who had access to an organization during a period ----

const vendorAccessSortKeys = ['vendor', 'username', 'accessSince', 'accessEnds', 'lastSignIn'] as const;

const vendorAccessFilters = {
  organization: z.uuid(reportMessages.organization).optional(),
  from: z.string({ error: reportMessages.from }).pipe(calendarDate).optional(),
  to: z.string({ error: reportMessages.to }).pipe(calendarDate).optional(),
};

/* @__NO_SIDE_EFFECTS__ */
function checkedRange<T extends z.ZodObject>(schema: T) {
  return schema.superRefine((q: { from?: string; to?: string }, ctx) => {
    if (!q.from || !q.to) return;
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: [], message: reportMessages.range });
    else if (dayNumber(q.to) - dayNumber(q.from) > MAX_REPORT_DAYS)
      ctx.addIssue({ code: 'custom', path: [], message: reportMessages.rangeTooLong });
  });
}

/** GET /api/admin/reports/vendor-access: by default every organization, the last 90 days. */
export const vendorAccessQuery = checkedRange(pageQuery(vendorAccessSortKeys).extend(vendorAccessFilters));
export type VendorAccessQuery = z.input<typeof vendorAccessQuery>;
export type VendorAccessFilters = z.output<typeof vendorAccessQuery>;
export const vendorAccessCsvQuery = checkedRange(
  z.strictObject({ ...vendorAccessFilters, filter: pageQuery(vendorAccessSortKeys).shape.filter }),
);
export type VendorAccessCsvFilters = z.output<typeof vendorAccessCsvQuery>;

export const vendorAccessRow = z.object({
  organization: z.string(),
  organizationId: z.string(),
  vendor: z.string(),
  username: z.string(),
  email: z.string(),
  /** ISO instants. */
  accessSince: z.string(),
  accessEnds: z.string(),
  sponsor: z.string().nullable(),
  approvedBy: z.string().nullable(),
  lastConfirmedInReview: z.string().nullable(),
  lastSignIn: z.string().nullable(),
  signInMethod: z.enum(['Security key', 'Authenticator app', 'None']),
  /** The Acceptable Use Policy version and date accepted (GOVERNANCE.md §8); null: none recorded. */
  policyAccepted: z.string().nullable(),
  /** "Current", or "Ended: {reason}" for access that ended in or after the period. */
  status: z.string(),
});
export type VendorAccessRow = z.infer<typeof vendorAccessRow>;
export const vendorAccessPage = pageOf(vendorAccessRow).extend({ from: z.string(), to: z.string() });
export type VendorAccessPage = z.infer<typeof vendorAccessPage>;

/** The CSV's columns, in order (§9.2's list, with the organization first). */
export const vendorAccessCsvColumns = [
  'Organization',
  'Vendor',
  'Username',
  'Email',
  'Access since',
  'Access ends',
  'Sponsor',
  'Approved by',
  'Last confirmed in review',
  'Last sign-in',
  'Sign-in method',
  'Policy accepted',
  'Status',
] as const;

// ---- Dormant and Disabled (§6.2): warned, disabled (reason, since), never activated ----

export const dormantKinds = ['warned', 'disabled', 'neverActivated'] as const;
export type DormantKind = (typeof dormantKinds)[number];
const dormantSortKeys = ['vendor', 'username', 'kind', 'since', 'lastSignIn', 'closesOn'] as const;
const dormantFilters = {
  kind: z.enum(dormantKinds, reportMessages.dormantKind).optional(),
};
export const dormantQuery = pageQuery(dormantSortKeys).extend(dormantFilters);
export type DormantQuery = z.input<typeof dormantQuery>;
export type DormantFilters = z.output<typeof dormantQuery>;
export const dormantCsvQuery = z.strictObject({
  ...dormantFilters,
  filter: dormantQuery.shape.filter,
});
export const dormantRow = z.object({
  accountId: z.string(),
  vendor: z.string(),
  username: z.string(),
  email: z.string(),
  kind: z.enum(dormantKinds),
  /** The account's disabled reason (manual, noAccess, inactive, departureReported); null unless disabled. */
  reason: z.string().nullable(),
  /** When: the warning, the disable, or the account's creation (never activated); ISO. */
  since: z.string(),
  lastSignIn: z.string().nullable(),
  /** YYYY-MM-DD: the day automation closes it (disabled for inactivity or no access, never activated). */
  closesOn: z.string().nullable(),
  organizations: z.string(),
});
export type DormantRow = z.infer<typeof dormantRow>;
export const dormantPage = pageOf(dormantRow);
export const dormantCsvColumns = [
  'Vendor',
  'Username',
  'Email',
  'State',
  'Reason',
  'Since',
  'Last sign-in',
  'Closes on',
  'Organizations',
] as const;
export const dormantKindLabels: Record<DormantKind, string> = {
  warned: 'Warned for inactivity',
  disabled: 'Disabled',
  neverActivated: 'Never activated',
};

// ---- Sponsorship (§6.2), paged ----

const sponsorshipSortKeys = ['organization', 'vendor', 'expiresAt'] as const;
export const sponsorshipQuery = pageQuery(sponsorshipSortKeys);
export const sponsorshipCsvQuery = z.strictObject({ filter: sponsorshipQuery.shape.filter });
export const sponsorshipCsvColumns = [
  'Organization',
  'Vendor',
  'Username',
  'Access ends',
  'Sponsor on record',
] as const;

// ---- Sign-in Strength (§7.1) ----

const strengthSortKeys = ['name', 'share', 'vendors'] as const;
export const signInStrengthQuery = pageQuery(strengthSortKeys);
export const signInStrengthCsvQuery = z.strictObject({ filter: signInStrengthQuery.shape.filter });
export const signInStrengthCsvColumns = [
  'Organization',
  'Risk tier',
  'Active vendors',
  'Phishing-resistant',
  'Share',
] as const;

// ---- Review Evidence (§9.3): closed campaigns, each with evidence.csv and evidence.json ----

const evidenceSortKeys = ['closedAt', 'organization', 'cycle'] as const;
export const evidenceCampaignsQuery = pageQuery(evidenceSortKeys);
export const evidenceCampaign = z.object({
  id: z.string(),
  cycle: z.string(),
  organization: z.string(),
  status: z.string(),
  /** ISO; null while the campaign is still open (its evidence is not ready). */
  closedAt: z.string().nullable(),
  items: z.number().int(),
});
export type EvidenceCampaign = z.infer<typeof evidenceCampaign>;
export const evidenceCampaignsPage = pageOf(evidenceCampaign);

/** The organizations the reports filter by (id and name; admins' and auditors'). */
export const reportOrganizations = z.object({
  organizations: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** What `report.export` names as the report. */
export const reportNames = [
  'vendor-access',
  'access-ending',
  'dormant',
  'sponsorship',
  'sign-in-strength',
] as const;
export type ReportName = (typeof reportNames)[number];
