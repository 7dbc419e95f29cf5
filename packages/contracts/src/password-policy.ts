import { z } from 'zod';
import { inputText } from './text';

/** The complexity rules of the spec's password-requirements response (its field names kept). */
export const passwordComplexity = z.object({
  maxRepeatChars: z.number().int(),
  minAlpha: z.number().int(),
  minLength: z.number().int(),
  minUpperAlpha: z.number().int(),
  minLowerAlpha: z.number().int(),
  minSpecialChars: z.number().int(),
  maxLength: z.number().int(),
  minCharTypes: z.number().int(),
  minNumeric: z.number().int(),
});
export type PasswordComplexity = z.infer<typeof passwordComplexity>;

/** The portal's complexity rules unless configured otherwise (PRODUCT.md, "Password policy"). */
export const defaultPasswordComplexity: PasswordComplexity = {
  minLength: 12,
  maxLength: 128,
  minUpperAlpha: 1,
  minLowerAlpha: 1,
  minNumeric: 1,
  minSpecialChars: 1,
  minCharTypes: 3,
  maxRepeatChars: 2,
  minAlpha: 0,
};

/** GET /api/user/auth/password-requirements?username= */
export const passwordRequirementsQuery = z.strictObject({
  username: inputText().trim().max(255).default(''),
});
export const passwordRequirements = z.object({
  status: z.literal('success'),
  Password_Complexity: passwordComplexity,
  blockedTerms: z.array(z.string()),
  /**
   * An addition to the spec's fields: passwords on the common-password list (zxcvbn's) are
   * refused, and the checklist shows the rule ('Not a commonly used password').
   */
  rejectCommonPasswords: z.boolean(),
});
export type PasswordRequirements = z.infer<typeof passwordRequirements>;

export {
  checkPassword,
  commonPasswordLookup,
  COMMON_PASSWORD_MESSAGE,
  passwordMeetsPolicy,
} from './password-rules';
export type { CommonPasswords, PasswordCheck } from './password-rules';
