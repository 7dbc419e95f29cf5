import {
  checkPassword,
  commonPasswordLookup,
  defaultPasswordComplexity,
  type CommonPasswords,
  type PasswordRequirements,
} from '@pra/contracts';
import { dictionary } from '@zxcvbn-ts/language-common';
import type { Config } from '../config';
import type { Account } from '../platform/db-schema';

/** Terms shorter than this would block too much ("al", "li") and protect nothing. */
const MIN_TERM_LENGTH = 3;

/**
 * The policy for a username: its own terms (the username, and — when the caller may see them —
 * the account's names and email local part) plus the configured words and the hospital name.
 */
export function passwordPolicy(
  config: Pick<Config, 'PASSWORD_BLOCKED_WORDS' | 'HOSPITAL_NAME'>,
  username: string,
  account?: Pick<Account, 'given_name' | 'family_name' | 'email'>,
): PasswordRequirements {
  const personal = account
    ? [account.given_name, account.family_name, account.email.slice(0, account.email.lastIndexOf('@'))]
    : [];
  const seen = new Set<string>();
  const blockedTerms: string[] = [];
  for (const raw of [username, ...personal, ...config.PASSWORD_BLOCKED_WORDS, config.HOSPITAL_NAME]) {
    const term = raw.trim();
    const key = term.toLowerCase();
    if (term.length < MIN_TERM_LENGTH || seen.has(key)) continue;
    seen.add(key);
    blockedTerms.push(term);
  }
  return {
    status: 'success',
    Password_Complexity: { ...defaultPasswordComplexity },
    blockedTerms,
    rejectCommonPasswords: true,
  };
}

let common: CommonPasswords | undefined;

/** zxcvbn's common-password list, lower-cased, loaded on first use (the web app loads the same). */
export function commonPasswords(): CommonPasswords {
  common ??= commonPasswordLookup(dictionary['passwords-common']);
  return common;
}

/**
 * The messages of every rule the password fails; empty when it is acceptable. Exactly the rules
 * `password-requirements` returns and the checklist shows, the common-password one included.
 */
export function passwordProblems(password: string, policy: PasswordRequirements): string[] {
  return checkPassword(password, policy, commonPasswords())
    .filter((check) => !check.ok)
    .map((check) => check.message);
}
