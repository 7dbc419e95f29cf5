import { z } from 'zod';
import { inputText } from './text';
import { successResponse } from './system';

/** An account as the activation and recovery flows show it. */
export const accountSummary = z.object({
  username: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  email: z.string(),
});
export type AccountSummary = z.infer<typeof accountSummary>;

/** Activation codes are shown in groups (e.g. ABCD-EFGH-JKMN-PQRS); separators and case don't matter. */
export const claimCode = inputText().trim().min(1, 'Required').max(64);

/** POST /api/user/activate/decode */
export const decodeBody = z.strictObject({ claimCode });
export type DecodeBody = z.infer<typeof decodeBody>;

export const decodeResponse = z.object({
  isValid: z.boolean(),
  invalidReason: z.string().optional(),
  account: accountSummary.optional(),
});
export type DecodeResponse = z.infer<typeof decodeResponse>;

/** POST /api/user/activate/activate-with-password */
export const activateBody = z.strictObject({ claimCode, newPassword: inputText().min(1).max(1024) });
export type ActivateBody = z.infer<typeof activateBody>;

export const activateResponse = successResponse;
export type ActivateResponse = z.infer<typeof activateResponse>;

export const activationMessages = {
  failedToProcess: 'Failed to process activation code',
  unexpected: 'Unexpected error occurred while activating account',
  activated: 'Password set and account activated',
  unknownCode: 'This activation code is not valid. Check the code in your email and try again.',
  expiredCode: 'This activation code has expired. Ask your business relationship manager for a new one.',
  usedCode: 'This activation code has already been used.',
  notPending: 'This account is not waiting for activation.',
} as const;
