import { z } from 'zod';
import { calendarDate } from './calendar-date';
import { inputText } from './text';
import { plainText } from './text-fields';
import { usernameField } from './username';

// Time-limited access, the vendor's and the BRM's calls (../shared/GOVERNANCE.md §3.7, contracts
// `access-expiry`): a vendor asks for more time on a grant; a BRM changes a grant's end date.

/** The extension dialog's justification: required, one line, at most 255 characters (§3.2). */
export const EXTENSION_JUSTIFICATION_MAX = 255;
const extensionJustification = plainText({ max: EXTENSION_JUSTIFICATION_MAX });

const roleNameField = inputText().trim().min(1, 'Select a role').max(300);

/** POST /api/vendor/access/extend: the role (its full name), the new end date and why. */
export const extendAccessBody = z.strictObject({
  name: roleNameField,
  requestedUntil: calendarDate,
  justification: extensionJustification,
});
export type ExtendAccessBody = z.input<typeof extendAccessBody>;

export const extendAccessResponse = z.object({ requestId: z.string() });
export type ExtendAccessResponse = z.infer<typeof extendAccessResponse>;

/** POST /api/brm/users/set-access-end: a managed vendor's role and its new end date. */
export const setAccessEndBody = z.strictObject({
  targetUsername: usernameField(),
  name: roleNameField,
  accessEndsOn: calendarDate,
});
export type SetAccessEndBody = z.input<typeof setAccessEndBody>;

/** The grant's new end: the instant, and its date in the hospital's time zone. */
export const setAccessEndResponse = z.object({
  success: z.boolean(),
  expiresAt: z.string(),
  endsOn: z.string(),
});
export type SetAccessEndResponse = z.infer<typeof setAccessEndResponse>;

/** Texts of the extension dialog, the end-date dialog and their calls (GOVERNANCE.md §3.2). */
export const accessExpiryMessages = {
  extensionSubmitted: 'Extension request has been submitted',
  extensionPending: 'An extension for this organization is already pending',
  extensionDate: (currentEnd: string, maxDate: string) =>
    `The new end date must be after ${currentEnd} and no later than ${maxDate}`,
  accessEnded: (organization: string) => `Access to ${organization} has already ended: request access again`,
  organizationInactive: (organization: string) => `${organization} is not active`,
  endDateChanged: 'End date has been changed',
  /** The welcome alert's line for a grant ending within 14 days. */
  endingAlert: (organization: string, endsOn: string, daysLeft: number) =>
    `Your access to ${organization} ends on ${endsOn} (${daysLeft === 1 ? '1 day' : `${daysLeft} days`} left).`,
  noSponsor: 'No sponsor',
} as const;
