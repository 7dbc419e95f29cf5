import { z } from 'zod';
import { calendarDate } from './calendar-date';
import { pageOf, pageQuery } from './paging';
import { inputText } from './text';

// The yearly Acceptable Use Policy attestation (GOVERNANCE.md §8): the texts of its screens and
// messages word for word, and the schemas of its calls.

import { aupMessages } from './plain-texts';

export { aupMessages };

/** Where a vendor stands: `current`, `due` (from 30 days before), `overdue` (grace ran out). */
export const aupStates = ['current', 'due', 'overdue'] as const;
export const aupState = z.enum(aupStates);
export type AupState = z.infer<typeof aupState>;

export const aupVersion = z.object({
  version: z.number().int().min(1),
  title: z.string(),
  /** The policy in Markdown (shown rendered, raw HTML never interpreted). */
  bodyMd: z.string(),
  /** YYYY-MM-DD in the hospital's time zone. */
  effectiveOn: z.string(),
  sha256: z.string(),
  publishedAt: z.string(),
  /** Who published it; null for version 1 (the migration) or a removed person. */
  publishedBy: z.string().nullable(),
});
export type AupVersion = z.infer<typeof aupVersion>;

/** A vendor's own standing, and what was accepted last. */
export const aupStanding = z.object({
  state: aupState,
  acceptedVersion: z.number().int().nullable(),
  /** YYYY-MM-DD: when the last acceptance was recorded; null when none is recorded. */
  acceptedOn: z.string().nullable(),
  /** YYYY-MM-DD: the next review's due date (the anniversary, or a new version's effective date). */
  dueOn: z.string(),
  /** YYYY-MM-DD: the last day before the portal is blocked (the due date plus the grace). */
  blocksAfter: z.string(),
  /** YYYY-MM-DD: the date the Welcome alert names (the due date, then the grace's last day). */
  reviewBy: z.string(),
});
export type AupStanding = z.infer<typeof aupStanding>;

/** GET /api/vendor/aup: the newest version to read and accept, and where the vendor stands. */
export const myAup = z.object({ policy: aupVersion, standing: aupStanding });
export type MyAup = z.infer<typeof myAup>;

/** POST /api/vendor/aup/accept: the version the vendor read (the newest, or 409). */
export const acceptAupBody = z.strictObject({ version: z.number().int().min(1) });
export type AcceptAupBody = z.infer<typeof acceptAupBody>;

/** POST /api/admin/aup/versions. */
export const publishAupBody = z.strictObject({
  title: inputText().trim().min(1, aupMessages.titleRequired).max(200, aupMessages.titleTooLong),
  bodyMd: inputText()
    .refine((text) => text.trim().length > 0, aupMessages.bodyRequired)
    .refine((text) => text.length <= 100_000, aupMessages.bodyTooLong),
  effectiveOn: z
    .string({ error: aupMessages.effectiveRequired })
    .min(1, aupMessages.effectiveRequired)
    .pipe(calendarDate),
});
export type PublishAupBody = z.infer<typeof publishAupBody>;

export const aupVersionList = z.object({ versions: z.array(aupVersion) });
export type AupVersionList = z.infer<typeof aupVersionList>;

// ---- Who has not accepted (Administration → Acceptable Use Policy) ----

const notAcceptedSortKeys = ['vendor', 'organization', 'dueOn', 'state'] as const;
export const notAcceptedQuery = pageQuery(notAcceptedSortKeys);
export type NotAcceptedQuery = z.input<typeof notAcceptedQuery>;
export const notAcceptedCsvQuery = z.strictObject({ filter: notAcceptedQuery.shape.filter });

export const notAcceptedRow = z.object({
  username: z.string(),
  vendor: z.string(),
  email: z.string(),
  /** The vendor's organizations, by name, joined with "; ". */
  organizations: z.string(),
  state: z.enum(['due', 'overdue']),
  acceptedVersion: z.number().int().nullable(),
  acceptedOn: z.string().nullable(),
  dueOn: z.string(),
  blocksAfter: z.string(),
});
export type NotAcceptedRow = z.infer<typeof notAcceptedRow>;
export const notAcceptedPage = pageOf(notAcceptedRow).extend({ newestVersion: z.number().int() });
export type NotAcceptedPage = z.infer<typeof notAcceptedPage>;
export const notAcceptedCsvColumns = [
  'Username',
  'Vendor',
  'Email',
  'Organizations',
  'State',
  'Version accepted',
  'Accepted on',
  'Due on',
  'Blocked after',
] as const;

// ---- The auditors' report (Administration → Reports → Acceptable Use Policy) ----

const reportSortKeys = ['vendor', 'acceptedAt', 'version'] as const;
export const aupReportQuery = pageQuery(reportSortKeys);
export type AupReportQuery = z.input<typeof aupReportQuery>;
export const aupReportCsvQuery = z.strictObject({ filter: aupReportQuery.shape.filter });

export const aupReportRow = z.object({
  username: z.string(),
  vendor: z.string(),
  email: z.string(),
  organizations: z.string(),
  /** The last recorded acceptance: null when none is recorded. */
  version: z.number().int().nullable(),
  acceptedAt: z.string().nullable(),
  clientAddress: z.string().nullable(),
  state: aupState,
});
export type AupReportRow = z.infer<typeof aupReportRow>;
export const aupReportPage = pageOf(aupReportRow);
export type AupReportPage = z.infer<typeof aupReportPage>;
export const aupReportCsvColumns = [
  'Username',
  'Vendor',
  'Email',
  'Organizations',
  'Version accepted',
  'Accepted at',
  'Client address',
  'State',
] as const;
