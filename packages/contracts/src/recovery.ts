import { z } from 'zod';
import { accountSummary } from './activation';
import { personName } from './text-fields';
import { inputText } from './text';
import { successResponse } from './system';
import { usernameField } from './username';
export { recoveryMessages } from './plain-texts';

/** In the forgot flows an email that is not one says 'Invalid email format' (spec section 5). */
export const INVALID_EMAIL_FORMAT = 'Invalid email format';
const recoveryEmail = inputText()
  .trim()
  .min(1, 'Required')
  .max(255, 'Max 255 characters')
  .pipe(z.email(INVALID_EMAIL_FORMAT));
const username = usernameField();

/** POST /api/user/forgot-user-id/search */
export const userIdSearchBody = z.strictObject({
  firstName: personName,
  lastName: personName,
  email: recoveryEmail,
});
export type UserIdSearchBody = z.infer<typeof userIdSearchBody>;

export const userIdSearchResponse = z.object({
  isValid: z.boolean(),
  user: accountSummary.optional(),
  invalidReason: z.string().optional(),
});
export type UserIdSearchResponse = z.infer<typeof userIdSearchResponse>;

/** POST /api/user/forgot-password/identify */
export const identifyBody = z.strictObject({ username, email: recoveryEmail });
export type IdentifyBody = z.infer<typeof identifyBody>;

export const identifyResponse = z.object({
  isAccountValid: z.boolean(),
  isDeviceValid: z.boolean(),
  /**
   * The bound account's device (only once identify matched and bound it): `canPush` when a paired
   * phone can receive a push, so Send Push is offered only then.
   */
  device: z.object({ nickname: z.string(), canPush: z.boolean() }).optional(),
  /** The bound account has a security key or passkey: Forgot Password offers "Verify with Security Key". */
  hasSecurityKey: z.boolean().optional(),
  /**
   * The account must sign in with a security key or passkey (GOVERNANCE.md §7.3): only the key
   * verifies it, passcode and push are not offered; without a key, the sponsor's reset is the way.
   */
  keyRequired: z.boolean().optional(),
  account: accountSummary.optional(),
  invalidReason: z.string().optional(),
});
export type IdentifyResponse = z.infer<typeof identifyResponse>;

/** POST /api/user/forgot-password/identify-by-code */
export const identifyByCodeBody = z.strictObject({ code: inputText().trim().min(1, 'Required').max(64) });
export type IdentifyByCodeBody = z.infer<typeof identifyByCodeBody>;

export const identifyByCodeResponse = z.object({
  isAccountValid: z.boolean(),
  isCodeValid: z.boolean(),
  account: accountSummary.optional(),
  invalidReason: z.string().optional(),
  /** The account must use a key: the link leads to the key check instead of verifying the session. */
  keyRequired: z.boolean().optional(),
  hasSecurityKey: z.boolean().optional(),
});
export type IdentifyByCodeResponse = z.infer<typeof identifyByCodeResponse>;

/** Passcodes are exactly six digits (spec section 5). */
export const passcodeMessages = {
  required: 'OTP is required',
  sixDigits: 'OTP must be exactly 6 digits',
} as const;
export const passcode = inputText()
  .trim()
  .min(1, passcodeMessages.required)
  .regex(/^\d{6}$/, passcodeMessages.sixDigits);

/** POST /api/user/forgot-password/ping-push */
export const pingPushBody = z.strictObject({ username });
export type PingPushBody = z.infer<typeof pingPushBody>;
/** `recentDevice`: approved, but by a phone paired less than 24 hours ago (not enough by itself). */
export const pushResult = z.enum(['success', 'timeout', 'failure', 'tooManyAttempts', 'recentDevice']);
export type PushResult = z.infer<typeof pushResult>;
export const pingPushResponse = z.object({ result: pushResult });
export type PingPushResponse = z.infer<typeof pingPushResponse>;

/** POST /api/user/forgot-password/verify-otp */
export const verifyOtpBody = z.strictObject({ username, otp: passcode });
export type VerifyOtpBody = z.infer<typeof verifyOtpBody>;
export const otpResult = z.enum(['success', 'invalidCode', 'tooManyAttempts']);
export type OtpResult = z.infer<typeof otpResult>;
export const verifyOtpResponse = z.object({ result: otpResult });
export type VerifyOtpResponse = z.infer<typeof verifyOtpResponse>;

/** POST /api/user/forgot-password/send-reset-email */
export const sendResetEmailBody = z.strictObject({ username });
export type SendResetEmailBody = z.infer<typeof sendResetEmailBody>;
export const sendResetEmailResponse = successResponse;

/** POST /api/user/forgot-password/set-password */
export const setPasswordBody = z.strictObject({ username, newPassword: inputText().min(1).max(1024) });
export type SetPasswordBody = z.infer<typeof setPasswordBody>;
export const setPasswordResponse = successResponse;
