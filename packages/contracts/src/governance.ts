import { z } from 'zod';
import { pageOf, pageQuery } from './paging';

// Its own module, so that a page needing only dates does not build the policy schemas below.
export { calendarDate } from './calendar-date';

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

// ---- Administration → Governance → Policies (GOVERNANCE.md §2.3) ----

export const policyMessages = {
  heading: 'Governance policies',
  saved: (tier: RiskTier) => `The ${tier} tier’s policy has been saved.`,
  changedMeanwhile:
    'This policy was changed by someone else meanwhile: reload the page and make your change again.',
  accessDaysOverCap: governanceMessages.accessDaysOverCap,
  remindersAfterDeadline: 'Approver reminders must come before the decision deadline',
  forwardAfterDeadline: 'The forward day must come before the decision deadline',
  reviewRemindersAfterWindow: 'Reviewer reminders must come before the end of the review window',
  escalationAfterWindow: 'The escalation day must come before the end of the review window',
  inactivityWarningsTooLate: 'Inactivity warnings must come before the inactivity disable',
  duplicateDays: 'Each day may be listed once',
} as const;

const ascending = (list: number[]) => new Set(list).size === list.length;

/** A tier's settings as an admin saves them: the schema plus the rules between its fields. */
export const checkedGovernanceSettings = governanceSettings.strict().superRefine((s, ctx) => {
  const issue = (path: keyof GovernanceSettings, message: string) =>
    ctx.addIssue({ code: 'custom', path: [path], message });
  if (s.accessDays > s.maxAccessDays) issue('accessDays', policyMessages.accessDaysOverCap);
  if (s.approverReminderDays.some((d) => d >= s.requestDecisionDays))
    issue('approverReminderDays', policyMessages.remindersAfterDeadline);
  if (s.forwardDay >= s.requestDecisionDays) issue('forwardDay', policyMessages.forwardAfterDeadline);
  if (s.reviewerReminderDays.some((d) => d >= s.reviewWindowDays))
    issue('reviewerReminderDays', policyMessages.reviewRemindersAfterWindow);
  if (s.reviewEscalationDay >= s.reviewWindowDays)
    issue('reviewEscalationDay', policyMessages.escalationAfterWindow);
  if (s.inactivityWarningDays.some((d) => d >= s.inactivityDisableDays))
    issue('inactivityWarningDays', policyMessages.inactivityWarningsTooLate);
  for (const key of [
    'expiryNoticeDays',
    'reviewerReminderDays',
    'approverReminderDays',
    'inactivityWarningDays',
  ] as const)
    if (!ascending(s[key])) issue(key, policyMessages.duplicateDays);
});

type SettingKind =
  | { kind: 'days'; unit: 'days' | 'months' | 'hours' }
  | { kind: 'dayList' }
  | { kind: 'optionalDays' }
  | { kind: 'boolean' }
  | { kind: 'choice'; options: readonly { value: string; label: string }[] };

type Key = keyof GovernanceSettings;
/** A setting as the Policies page names and enters it. */
export type PolicySettingField = { key: Key; label: string; group: string } & SettingKind;
type Field = { key: Key; label: string } & SettingKind;

// One shape for every field, made by its kind.
const inDays = (key: Key, label: string, unit: 'days' | 'months' | 'hours' = 'days'): Field => ({
  key,
  label,
  kind: 'days',
  unit,
});
const listOfDays = (key: Key, label: string): Field => ({ key, label, kind: 'dayList' });
const yesNo = (key: Key, label: string): Field => ({ key, label, kind: 'boolean' });
/** A choice of values, each with its label, in the order given. */
const choice = (key: Key, label: string, options: Record<string, string>): Field => ({
  key,
  label,
  kind: 'choice',
  options: Object.entries(options).map(([value, text]) => ({ value, label: text })),
});
const group = (name: string, fields: Field[]): PolicySettingField[] =>
  fields.map((field) => ({ group: name, ...field }));

/** How each setting is named and entered on the Policies page, in §2.3's order and groups. */
export const policySettingFields: readonly PolicySettingField[] = [
  ...group('Access', [
    inDays('accessDays', 'Access granted for'),
    inDays('maxAccessDays', 'Latest end date a BRM may set'),
    yesNo('extensionJustificationRequired', 'Extensions need a justification'),
    listOfDays('expiryNoticeDays', 'Expiry notices (days before the end)'),
  ]),
  ...group('Requests', [
    inDays('requestDecisionDays', 'Decision deadline (days after submission)'),
    listOfDays('approverReminderDays', 'Approver reminders (days after submission)'),
    inDays('forwardDay', 'Forward to backup BRMs on day'),
  ]),
  ...group('Access reviews', [
    inDays('reviewCadenceMonths', 'Review cadence', 'months'),
    inDays('reviewWindowDays', 'Review window'),
    listOfDays('reviewerReminderDays', 'Reviewer reminders (day of the window)'),
    inDays('reviewEscalationDay', 'Escalate to InfoSec on day'),
    choice('reviewDefaultAction', 'If reviewers don’t respond', {
      remove: 'Remove access',
      keep: 'Keep access',
    }),
    choice('reviewerJustification', 'Reviewer justification', {
      none: 'Not required',
      remove: 'Required to Remove',
      keepAndRemove: 'Required to Keep and to Remove',
    }),
    choice('vendorConfirmation', 'Vendor confirmation in reviews', {
      off: 'Off',
      optional: 'On (optional answer)',
      requested: 'On (answer requested)',
    }),
    inDays('inactivityRecommendationDays', 'Recommend removal after no sign-in for'),
  ]),
  ...group('Accounts', [
    inDays('inactivityDisableDays', 'Disable after no sign-in for'),
    listOfDays('inactivityWarningDays', 'Inactivity warnings (days before the disable)'),
    inDays('terminateAfterDisableDays', 'Close accounts disabled by automation after'),
    inDays('neverActivatedCloseDays', 'Close never-activated accounts after'),
  ]),
  ...group('Sign-in', [
    choice('signInStrength', 'Sign-in strength', {
      mfa: 'Multi-factor',
      phishingResistant: 'Phishing-resistant (passkey)',
    }),
    { key: 'passkeyGraceDays', label: 'Passkey grace period (empty: none)', kind: 'optionalDays' },
  ]),
  ...group('Acceptable use', [
    inDays('aupRenewalDays', 'Renew acceptance every'),
    inDays('aupGraceDays', 'Grace period'),
  ]),
  ...group('Emergencies and departures', [
    inDays('emergencyMaxHours', 'Emergency access at most', 'hours'),
    inDays('departureDecisionHours', 'Decide a reported departure within', 'hours'),
    yesNo('departureSuspendAtOnce', 'Suspend a reported departure at once'),
  ]),
];

/** One tier's policy as shown: its settings and who changed it last. */
export const governancePolicy = z.object({
  tier: riskTier,
  settings: governanceSettings,
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  /** The version to send back with a change (refused if someone saved in between). */
  version: z.string(),
});
export type GovernancePolicy = z.infer<typeof governancePolicy>;
/** GET /api/admin/governance/policies */
export const governancePolicies = z.object({
  policies: z.array(governancePolicy),
  /** Whether the caller may change them (auditors may not). */
  canEdit: z.boolean(),
});
export type GovernancePolicies = z.infer<typeof governancePolicies>;
/** PUT /api/admin/governance/policies */
export const savePolicyBody = z.strictObject({
  tier: riskTier,
  version: z.string().max(100),
  settings: checkedGovernanceSettings,
});
export type SavePolicyBody = z.input<typeof savePolicyBody>;

// ---- Administration → Reports → Access ending (GOVERNANCE.md §3.2) ----

/** The windows the report offers, in days from today; 30 by default. */
export const ENDING_WINDOWS = [7, 14, 30, 60, 90] as const;

export const endingMessages = {
  heading: 'Access ending',
  window: `days must be one of: ${ENDING_WINDOWS.join(', ')}`,
  organization: 'Not a valid organization id.',
  none: 'No access ends in this period.',
  download: 'Download CSV',
} as const;

const endingSortKeys = ['endsOn', 'organization', 'vendor', 'sponsor'] as const;

const endingFilters = {
  days: z.coerce
    .number({ error: endingMessages.window })
    .refine((n) => (ENDING_WINDOWS as readonly number[]).includes(n), endingMessages.window)
    .optional(),
  organization: z.uuid(endingMessages.organization).optional(),
};

/** GET /api/admin/reports/ending: one page of the grants ending in the window. */
export const endingQuery = pageQuery(endingSortKeys).extend(endingFilters);
export type EndingQuery = z.input<typeof endingQuery>;
export type EndingFilters = z.output<typeof endingQuery>;
/** GET /api/admin/reports/ending.csv: every matching grant (same filters, sorted by end date). */
export const endingCsvQuery = z.strictObject({
  ...endingFilters,
  filter: endingQuery.shape.filter,
});

export const endingRow = z.object({
  organization: z.string(),
  organizationId: z.string(),
  username: z.string(),
  vendor: z.string(),
  email: z.string(),
  /** YYYY-MM-DD, the last day of access in the hospital's time zone. */
  endsOn: z.string(),
  daysLeft: z.number().int(),
  sponsor: z.string().nullable(),
  extensionPending: z.boolean(),
});
export type EndingRow = z.infer<typeof endingRow>;
export const endingPage = pageOf(endingRow).extend({
  /** Today and the window's last day, YYYY-MM-DD in the hospital's time zone. */
  from: z.string(),
  until: z.string(),
});
export type EndingPage = z.infer<typeof endingPage>;

/** The CSV's columns, in order. */
export const endingCsvColumns = [
  'Organization',
  'Username',
  'Vendor',
  'Email',
  'Access ends',
  'Days left',
  'Sponsor',
  'Extension pending',
] as const;
