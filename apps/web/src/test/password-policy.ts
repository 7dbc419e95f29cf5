import { defaultPasswordComplexity, type PasswordRequirements } from '@pra/contracts';

/** The product's default policy (PRODUCT.md), with blocked terms for the given person. */
export function makePasswordRequirements(blockedTerms: string[] = []): PasswordRequirements {
  return {
    status: 'success',
    Password_Complexity: defaultPasswordComplexity,
    blockedTerms,
    rejectCommonPasswords: true,
  };
}

/** Passes the default policy. */
export const GOOD_PASSWORD = 'Correct-Horse-Battery-9';
