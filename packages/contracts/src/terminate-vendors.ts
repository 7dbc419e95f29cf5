import { z } from 'zod';
import { emailAddress } from './text-fields';

/** Most email addresses one Terminate Vendors call takes; the file check and the server both apply it. */
export const TERMINATE_MAX_EMAILS = 10_000;

export const terminateMessages = {
  invalidEmails: 'File consists of one or more invalid email addresses',
  emptyFile: 'File is empty or improperly formatted',
  tooMany: `A file may hold at most ${TERMINATE_MAX_EMAILS.toLocaleString('en-US')} email addresses: split it into smaller files.`,
  noEmails: 'At least one email address is required.',
} as const;

const email = emailAddress;

/**
 * POST /api/brm/terminate-vendors. `dryRun` (an addition to the spec) answers what would happen
 * to each email and changes nothing, for the page's preview and confirmation.
 */
export const terminateVendorsBody = z.strictObject({
  emails: z
    .array(email)
    .min(1, terminateMessages.noEmails)
    .max(TERMINATE_MAX_EMAILS, terminateMessages.tooMany),
  dryRun: z.boolean().optional(),
});
export type TerminateVendorsBody = z.infer<typeof terminateVendorsBody>;

/**
 * Files with more addresses than this are terminated by a background job the page follows
 * (progress, results filling in, surviving a reload); smaller ones by the spec's single call.
 */
export const TERMINATE_JOB_THRESHOLD = 500;

/** The job's messages (the job is an addition to the spec). */
export const terminateJobMessages = {
  notFound: 'No such termination job of yours.',
  notRunning: 'This termination has already finished.',
  ownerRefused: 'Stopped: the person who started it may no longer terminate vendors.',
  interrupted: 'The job was interrupted too many times.',
} as const;

/** POST /api/brm/terminate-vendors/jobs: the file's emails, as for the spec's call (no dry run). */
export const terminateJobBody = z.strictObject({ emails: terminateVendorsBody.shape.emails });
export type TerminateJobBody = z.infer<typeof terminateJobBody>;

export const terminateJobStarted = z.object({ id: z.uuid() });

export const terminateJobQuery = z.strictObject({
  /** The first result line wanted (the `next` of the previous answer); 0 also sends the emails. */
  from: z.coerce.number().int().min(0).max(1_000_000).optional(),
});

export const jobStatus = z.enum(['queued', 'running', 'done', 'cancelled', 'failed']);
export type JobStatus = z.infer<typeof jobStatus>;

/**
 * A termination job as its owner follows it: `done` of `total` lines written, the lines from
 * `from` on (each the line of the file's item `item`), and where the next poll starts (`next`).
 * `emails` (the file) only when asked from 0, so a reloaded page can show the table again.
 */
export const terminateJobView = z.object({
  id: z.uuid(),
  status: jobStatus,
  total: z.number().int(),
  done: z.number().int(),
  cancelRequested: z.boolean(),
  /** Why a failed job stopped. */
  error: z.string().nullable(),
  emails: z.array(z.string()).optional(),
  results: z.array(z.object({ item: z.number().int(), result: z.string() })),
  next: z.number().int(),
});
export type TerminateJobView = z.infer<typeof terminateJobView>;

/** The line of an email a cancelled or failed job did not reach: nothing changed for it. */
export const NOT_REACHED =
  'Not processed: the termination stopped before this email; nothing changed for it.';

/** One result line per email, in the order sent (spec section 3, "Terminate-vendors result"). */
export const terminateVendorsResponse = z.array(z.string());
export type TerminateVendorsResponse = z.infer<typeof terminateVendorsResponse>;

/**
 * Reads a Terminate Vendors file as the spec says: text split on whitespace (and commas, as a
 * spreadsheet saves one column or one row), every item an email address.
 */
export function parseEmailFile(text: string): { emails: string[] } | { error: string } {
  const items = text
    .replace(/^\uFEFF/, '')
    .split(/[\s,;]+/)
    .map((item) => item.replace(/^"(.*)"$/, '$1'))
    .filter(Boolean);
  if (items.length === 0) return { error: terminateMessages.emptyFile };
  if (!items.every((item) => email.safeParse(item).success))
    return { error: terminateMessages.invalidEmails };
  if (items.length > TERMINATE_MAX_EMAILS) return { error: terminateMessages.tooMany };
  return { emails: items };
}
