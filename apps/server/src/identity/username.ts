import type { Tx } from '../platform/db';
import { lockedUsernamesWithStem } from '../store/accounts';

const USERNAME_MAX_LENGTH = 20;

/** Latin letters that do not decompose into a base letter and a mark. */
const TRANSLITERATIONS: Record<string, string> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ł: 'l',
  þ: 'th',
  ð: 'd',
};

/** Lowercase ASCII letters only: diacritics dropped (é → e), everything else removed. */
function asciiLetters(text: string): string {
  return text
    .toLowerCase()
    .replace(/[øæœßđłþð]/g, (ch) => TRANSLITERATIONS[ch] ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/**
 * The username a new account would get before uniqueness: given-name initial + family name,
 * lowercase ASCII, at most 20 characters. Names without any Latin letter fall back to "user".
 */
export function usernameBase(givenName: string, familyName: string): string {
  const base = (asciiLetters(givenName).slice(0, 1) + asciiLetters(familyName)).slice(0, USERNAME_MAX_LENGTH);
  return base.length > 0 ? base : 'user';
}

/** Candidates are numbered below this, so a suffix has at most five digits. */
const MAX_CANDIDATES = 100_000;
const MAX_SUFFIX_LENGTH = String(MAX_CANDIDATES - 1).length;

/** The n-th candidate: the base itself, then base1, base2, …, shortened to stay within 20 characters. */
export function usernameCandidate(base: string, n: number): string {
  if (n === 0) return base;
  const suffix = String(n);
  return base.slice(0, USERNAME_MAX_LENGTH - suffix.length) + suffix;
}

/**
 * What every candidate of the base starts with: the base cut to leave room for the longest suffix.
 * Two bases can only share a candidate if they share this stem (e.g. two long family names that
 * differ only after the 15th letter both end up as "…1" once shortened).
 */
export function usernameStem(base: string): string {
  return base.slice(0, USERNAME_MAX_LENGTH - MAX_SUFFIX_LENGTH);
}

/** The first candidate of the base not among the taken usernames (lowercase). */
export function firstFreeUsername(base: string, taken: ReadonlySet<string>): string {
  for (let n = 0; n < MAX_CANDIDATES; n += 1) {
    const candidate = usernameCandidate(base, n);
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error('no free username');
}

/**
 * A unique username for a new account. The advisory lock is keyed on the stem every candidate is
 * built from, so two approvals that could pick the same name — also for two different long names
 * — take turns instead of colliding on the unique index. The taken names are read at once.
 */
export async function generateUsername(tx: Tx, givenName: string, familyName: string): Promise<string> {
  const base = usernameBase(givenName, familyName);
  const stem = usernameStem(base);
  return firstFreeUsername(base, await lockedUsernamesWithStem(tx, stem));
}
