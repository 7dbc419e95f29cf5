import type { PasswordRequirements } from '@pra/contracts';

/** The product's default policy (PRODUCT.md), with blocked terms for the given person. */
export function makePasswordRequirements(blockedTerms: string[] = []): PasswordRequirements {
  return {
    status: 'success',
    Password_Complexity: {
      maxRepeatChars: 2,
      minAlpha: 0,
      minLength: 12,
      minUpperAlpha: 1,
      minLowerAlpha: 1,
      minSpecialChars: 1,
      maxLength: 128,
      minCharTypes: 0,
      minNumeric: 1,
    },
    blockedTerms,
  };
}

/** Passes the default policy. */
export const GOOD_PASSWORD = 'Correct-Horse-Battery-9';
