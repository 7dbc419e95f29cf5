import { z } from 'zod';
import { calendarDate } from './calendar-date';
import { inputText } from './text';
import { plainText } from './text-fields';
import { usernameField } from './username';

// Emergency access and vendor-reported departures (../shared/GOVERNANCE.md §10): an admin's
// time-boxed grant of one organization from Manage Users → Manage Access, and a vendor's report that
// a colleague of the same organization left, from Manage Access. Both are followed up in Approvals
// (Request Types "Emergency Access" and "Departure Reported").

/** The most hours an emergency grant may last by default (the tiers' `emergencyMaxHours`, §2.3). */
export const EMERGENCY_MAX_HOURS = 72;

/** Texts of the emergency-access dialog, its call and its follow-up in Approvals (§10.1). */
export const emergencyMessages = {
  title: 'Grant emergency access',
  hours: (max: number) => `Hours must be a whole number from 1 to ${max}`,
  ticketRequired: 'A ticket number is required',
  alreadyHasAccess: (name: string, organization: string) => `${name} already has access to ${organization}`,
  accountNotActive: (name: string) => `${name}'s account is not active`,
  granted: (organization: string, endsAt: string) =>
    `Emergency access to ${organization} granted until ${endsAt}`,
  noteRequired: 'A note is required to acknowledge emergency access',
  acknowledged: 'Emergency access has been acknowledged',
  removed: 'Emergency access has been removed',
} as const;

const hoursMessage = emergencyMessages.hours(EMERGENCY_MAX_HOURS);

/**
 * POST /api/brm/users/emergency-access (admins): the vendor, the organization's role (its full
 * name), how many hours (1 to the tier's maximum, 72 by default), the ticket number and why.
 */
export const emergencyAccessBody = z.strictObject({
  targetUsername: usernameField(),
  name: inputText().trim().min(1, 'Select an organization').max(300),
  hours: z
    .number({ error: hoursMessage })
    .int({ error: hoursMessage })
    .min(1, { error: hoursMessage })
    .max(96, { error: hoursMessage }),
  ticket: z
    .string({ error: emergencyMessages.ticketRequired })
    .pipe(plainText({ max: 64, required: false }))
    .refine((t) => t.length > 0, emergencyMessages.ticketRequired),
  reason: plainText({ required: false }).default(''),
});
export type EmergencyAccessBody = z.input<typeof emergencyAccessBody>;

/** When the emergency grant ends: the instant and how the hospital's clock shows it. */
export const emergencyAccessResponse = z.object({
  success: z.boolean(),
  endsAt: z.string(),
  endsAtText: z.string(),
});
export type EmergencyAccessResponse = z.infer<typeof emergencyAccessResponse>;

/** Texts of the departure report (§10.2). */
export const departureReportMessages = {
  link: (organization: string) => `Report a colleague who left ${organization}`,
  title: (organization: string) => `Report a colleague who left ${organization}`,
  send: 'Send Report',
  thanks: (organization: string) => `Thank you. ${organization}'s sponsor has been told.`,
  /** The same answer whether the name is unknown or belongs to another organization's vendor. */
  notFound: (organization: string) => `No vendor of ${organization} has this email or username.`,
  notYourOrganization: (organization: string) =>
    `You can only report colleagues of ${organization} while you have access to it.`,
  self: 'You cannot report yourself.',
  leftInFuture: 'The date left cannot be in the future.',
  tooMany: 'You can send at most 3 departure reports a day. Please try again tomorrow.',
  confirmed: 'Departure has been confirmed',
  dismissed: 'Report has been dismissed',
} as const;

/** Reports a vendor may send a day (§10.2). */
export const DEPARTURE_REPORTS_PER_DAY = 3;

/** POST /api/vendor/departures: the organization's role, the colleague (email or username), when they left, a note. */
export const departureReportBody = z.strictObject({
  name: inputText().trim().min(1, 'Select an organization').max(300),
  colleague: inputText().trim().min(1, 'Required').max(255, 'Max 255 characters'),
  leftOn: calendarDate,
  note: plainText({ required: false }).default(''),
});
export type DepartureReportBody = z.input<typeof departureReportBody>;

export const departureReportResponse = z.object({ success: z.boolean(), message: z.string() });
export type DepartureReportResponse = z.infer<typeof departureReportResponse>;

/**
 * What Approvals shows of an Emergency Access item (additive on the pending approval): the ticket,
 * the reason, who granted it, for how many hours and until when, and whether it has ended.
 */
export const emergencyItem = z.object({
  ticket: z.string(),
  reason: z.string(),
  hours: z.number().int(),
  grantedBy: z.string(),
  endsAt: z.string(),
  endedAt: z.string().nullable(),
});
export type EmergencyItem = z.infer<typeof emergencyItem>;

/** What Approvals shows of a Departure Reported item: who reported, when they left, whether the account is suspended. */
export const departureItem = z.object({
  reportedBy: z.string(),
  leftOn: z.string(),
  note: z.string(),
  suspended: z.boolean(),
  forwarded: z.boolean(),
});
export type DepartureItem = z.infer<typeof departureItem>;
