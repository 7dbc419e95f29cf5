import type { CommonPasswords, PasswordCheck, PasswordRequirements } from '@pra/contracts';
import { checkPassword } from '@pra/contracts/password-rules';

/** The two inputs of the password component. */
export interface PasswordPair {
  newPassword: string;
  confirmPassword: string;
}

export const emptyPasswordPair: PasswordPair = { newPassword: '', confirmPassword: '' };

export const PASSWORDS_MUST_MATCH = 'Passwords must match';

export interface PasswordEvaluation {
  /** Every server rule against the new password, in checklist order (empty until the policy loads). */
  checks: PasswordCheck[];
  /** Whether the confirmation equals the new password. */
  matches: boolean;
  /** True only when the policy is known, the password is non-empty, passes every rule and is confirmed. */
  isValid: boolean;
}

/** Judges a password pair against the policy the server returned; the server enforces the same rules. */
export function evaluatePassword(
  pair: PasswordPair,
  requirements: PasswordRequirements | undefined,
  commonPasswords?: CommonPasswords,
): PasswordEvaluation {
  const checks = requirements ? checkPassword(pair.newPassword, requirements, commonPasswords) : [];
  const matches = pair.newPassword === pair.confirmPassword;
  const isValid =
    requirements !== undefined && pair.newPassword.length > 0 && checks.every((check) => check.ok) && matches;
  return { checks, matches, isValid };
}
