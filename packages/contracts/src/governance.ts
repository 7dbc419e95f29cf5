import { z } from 'zod';

/** A calendar date, YYYY-MM-DD (in the hospital's time zone where it means a day). */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD')
  .refine((text) => {
    const [y, m, d] = text.split('-').map(Number) as [number, number, number];
    const check = new Date(Date.UTC(y, m - 1, d));
    return check.getUTCMonth() === m - 1 && check.getUTCDate() === d;
  }, 'Enter a real date');

export const riskTiers = ['standard', 'high'] as const;
export const riskTier = z.enum(riskTiers);
export type RiskTier = z.infer<typeof riskTier>;

const days = (max: number) => z.number().int().min(1).max(max);
const dayList = (max: number) => z.array(days(max)).max(5);

/**
 * One risk tier's governance settings (../shared/GOVERNANCE.md §2.3), as kept in
 * `governance_policies.settings`. Seeded by migration 0010 with the standard and high defaults.
 */
export const governanceSettings = z.object({
  /** Access granted for (the default end date at approval), in days. */
  accessDays: days(3660),
  /** The latest end date a BRM may set, in days from the decision. */
  maxAccessDays: days(3660),
  extensionJustificationRequired: z.boolean(),
  /** Expiry notices to the vendor, days before the end. */
  expiryNoticeDays: dayList(365),
  reviewCadenceMonths: z.number().int().min(1).max(12),
  reviewWindowDays: days(90),
  reviewerReminderDays: dayList(90),
  reviewEscalationDay: days(90),
  reviewDefaultAction: z.enum(['remove', 'keep']),
  reviewerJustification: z.enum(['none', 'remove', 'keepAndRemove']),
  vendorConfirmation: z.enum(['off', 'optional', 'requested']),
  inactivityRecommendationDays: days(3660),
  /** Request decision deadline, days after submission. */
  requestDecisionDays: days(365),
  /** Approver reminders, days after submission. */
  approverReminderDays: dayList(365),
  /** Forward to backup BRMs, then InfoSec, on this day after submission. */
  forwardDay: days(365),
  inactivityDisableDays: days(3660),
  inactivityWarningDays: dayList(365),
  terminateAfterDisableDays: days(3660),
  neverActivatedCloseDays: days(3660),
  signInStrength: z.enum(['mfa', 'phishingResistant']),
  passkeyGraceDays: days(365).nullable(),
  aupRenewalDays: days(3660),
  aupGraceDays: days(365),
  emergencyMaxHours: z.number().int().min(1).max(96),
  departureDecisionHours: z.number().int().min(1).max(720),
  departureSuspendAtOnce: z.boolean(),
});
export type GovernanceSettings = z.infer<typeof governanceSettings>;

/** The texts governance shows, shared by the API and the screens. */
export const governanceMessages = {
  testClockInProduction: 'TEST_CLOCK is not allowed in production',
  accessDaysOverCap: 'Access granted for cannot be longer than the latest end date',
} as const;
