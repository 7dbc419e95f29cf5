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
