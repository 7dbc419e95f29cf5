import { governanceSettings, type GovernanceSettings } from '@pra/contracts';
import { AppError } from '../../platform/app-error';
import type { Db, Tx } from '../../platform/db';
import { addDays, endOfLocalDay, localDate } from '../../platform/local-time';
import { readPolicies } from '../../store/governance';
import { findOrganizationById } from '../../store/organizations';

/** The end-date rules of one organization at an instant (GOVERNANCE.md §3.4). */
export interface GrantTerms {
  /** Access granted for (the tier's default), in days. */
  accessDays: number;
  /** The default end date (YYYY-MM-DD, hospital time): the tier's duration, within the cap. */
  defaultDate: string;
  /** The latest end date allowed: the tier's cap, and never past the contract's end. */
  maxDate: string;
}

export const grantTermMessages = {
  endDate: (maxDate: string) => `The end date must be in the future and no later than ${maxDate}`,
} as const;

/** The organization's end-date rules at `at`, in the hospital's time zone. */
export async function grantTerms(
  db: Db | Tx,
  organizationId: string,
  at: Date,
  zone: string,
): Promise<GrantTerms> {
  const organization = await findOrganizationById(db, organizationId);
  const tier = organization?.risk_tier ?? 'standard';
  const row = (await readPolicies(db)).find((p) => p.tier === tier);
  return termsOf(governanceSettings.parse(row?.settings), organization?.contract_ends_on ?? null, at, zone);
}

/** The terms from a tier's settings and the organization's contract end (null: none), at `at`. */
export function termsOf(
  settings: Pick<GovernanceSettings, 'accessDays' | 'maxAccessDays'>,
  contractEndsOn: string | null,
  at: Date,
  zone: string,
): GrantTerms {
  const today = localDate(at, zone);
  let maxDate = addDays(today, settings.maxAccessDays);
  if (contractEndsOn && contractEndsOn < maxDate) maxDate = contractEndsOn;
  const wanted = addDays(today, settings.accessDays);
  return { accessDays: settings.accessDays, defaultDate: wanted < maxDate ? wanted : maxDate, maxDate };
}

/**
 * The instant a grant made at `at` ends: the end (23:59:59 hospital time) of the date asked for,
 * checked against the organization's terms, or of the default date when none is asked for. A
 * date in the past or past the cap is refused with the spec's message (400).
 */
export async function chooseGrantEnd(
  db: Db | Tx,
  organizationId: string,
  at: Date,
  zone: string,
  asked?: string | null,
): Promise<Date> {
  const terms = await grantTerms(db, organizationId, at, zone);
  if (!asked) return endOfLocalDay(terms.defaultDate, zone);
  const end = endOfLocalDay(asked, zone);
  if (end <= at || asked > terms.maxDate)
    throw new AppError('badRequest', grantTermMessages.endDate(terms.maxDate));
  return end;
}
