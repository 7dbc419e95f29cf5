import type { PasswordRequirements } from './password-policy';

// The password rules' checks, without the schema library: the browser's password field runs them
// as a person types, and the profile page should not load zod before anyone does
// (password-policy.ts re-exports them for everyone else).

export interface PasswordCheck {
  /** Stable key of the rule, for list keys and tests. */
  rule: string;
  /** The spec's message for the rule. */
  message: string;
  ok: boolean;
}

export const COMMON_PASSWORD_MESSAGE = 'Not a commonly used password';

/** The common-password list as a lookup of lower-cased entries (a Set will do). */
export interface CommonPasswords {
  has(lowerCased: string): boolean;
}

/** The lookup the rule uses, built the same way on the server and in the browser. */
export function commonPasswordLookup(entries: readonly string[]): CommonPasswords {
  return new Set(entries.map((entry) => entry.toLowerCase()));
}

const count = (value: string, pattern: RegExp) => (value.match(pattern) ?? []).length;

/** The longest run of one character repeated. */
function longestRun(value: string): number {
  let longest = 0;
  let run = 0;
  let previous = '';
  for (const ch of value) {
    run = ch === previous ? run + 1 : 1;
    previous = ch;
    longest = Math.max(longest, run);
  }
  return longest;
}

/**
 * Every rule of the policy checked against a password, in the order the checklist shows them.
 * The server enforces exactly this list; the web app shows it live. `commonPasswords` is the list
 * the common-password rule needs; until it is given (the web app loads it lazily) that rule
 * counts as not met.
 */
export function checkPassword(
  password: string,
  policy: PasswordRequirements,
  commonPasswords?: CommonPasswords,
): PasswordCheck[] {
  const c = policy.Password_Complexity;
  const upper = count(password, /\p{Lu}/gu);
  const lower = count(password, /\p{Ll}/gu);
  const digits = count(password, /\p{Nd}/gu);
  const letters = count(password, /\p{L}/gu);
  const symbols = count(password, /[^\p{L}\p{Nd}]/gu);
  const types = [upper, lower, digits, symbols].filter((n) => n > 0).length;
  const checks: PasswordCheck[] = [
    { rule: 'minLength', message: `Min length: ${c.minLength}`, ok: [...password].length >= c.minLength },
    { rule: 'maxLength', message: `Max length: ${c.maxLength}`, ok: [...password].length <= c.maxLength },
    {
      rule: 'minUpperAlpha',
      message: `Min uppercase characters: ${c.minUpperAlpha}`,
      ok: upper >= c.minUpperAlpha,
    },
    {
      rule: 'minLowerAlpha',
      message: `Min lowercase characters: ${c.minLowerAlpha}`,
      ok: lower >= c.minLowerAlpha,
    },
    {
      rule: 'minSpecialChars',
      message: `Min number of symbols: ${c.minSpecialChars}`,
      ok: symbols >= c.minSpecialChars,
    },
    { rule: 'minNumeric', message: `Min amount of numbers: ${c.minNumeric}`, ok: digits >= c.minNumeric },
    {
      rule: 'maxRepeatChars',
      message: `Max repeated characters: ${c.maxRepeatChars}`,
      ok: longestRun(password) <= c.maxRepeatChars,
    },
  ];
  if (c.minAlpha > 0) {
    checks.push({ rule: 'minAlpha', message: `Min letters: ${c.minAlpha}`, ok: letters >= c.minAlpha });
  }
  if (c.minCharTypes > 0) {
    checks.push({
      rule: 'minCharTypes',
      message: `Min character types: ${c.minCharTypes}`,
      ok: types >= c.minCharTypes,
    });
  }
  if (policy.rejectCommonPasswords) {
    checks.push({
      rule: 'notCommon',
      message: COMMON_PASSWORD_MESSAGE,
      ok: commonPasswords !== undefined && !commonPasswords.has(password.toLowerCase()),
    });
  }
  // Blocked terms appear in the list only when the password contains one: a tick beside
  // "Contains blocked term" would read as the opposite of what it means.
  const folded = password.toLowerCase();
  for (const term of policy.blockedTerms) {
    if (term.length > 0 && folded.includes(term.toLowerCase())) {
      checks.push({ rule: `blocked:${term}`, message: `Contains blocked term: ${term}`, ok: false });
    }
  }
  return checks;
}

/** True when every rule passes. */
export function passwordMeetsPolicy(
  password: string,
  policy: PasswordRequirements,
  commonPasswords?: CommonPasswords,
): boolean {
  return checkPassword(password, policy, commonPasswords).every((check) => check.ok);
}
