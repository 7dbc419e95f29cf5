import { z } from 'zod';
import { successResponse } from './system';
import { profileMessages } from './profile';
import { passcode, recoveryMessages } from './recovery';
import { inputText } from './text';

/**
 * Second factors of the signed-in account (PRODUCT.md, "Second factors"). Adding or removing one
 * first needs POST /api/user/authenticator/confirm: the current password and, when the account
 * has a factor already, a passcode from it or a push approved on a paired phone. A success marks the session for a few minutes; the
 * next change uses the mark up.
 */
export const confirmOwnerBody = z.strictObject({
  password: inputText().min(1).max(1024),
  /** The 6-digit passcode of the enrolled authenticator; required when the account has one. */
  passcode: passcode.optional(),
  /** Instead of the passcode: a push to a paired phone, approved there (the call waits for it). */
  push: z.boolean().optional(),
});
export type ConfirmOwnerBody = z.infer<typeof confirmOwnerBody>;
export const confirmOwnerResponse = z.object({
  /**
   * `authenticationFailure`: wrong password; `invalidCode`: wrong or missing passcode;
   * `pushNotApproved`: the push was denied, not answered in time, or there is no phone to ask.
   */
  result: z.enum(['success', 'authenticationFailure', 'invalidCode', 'pushNotApproved']),
});
export type ConfirmOwnerResponse = z.infer<typeof confirmOwnerResponse>;

/** How long a confirmation allows one change of the second factors. */
export const FACTOR_CONFIRMATION_MINUTES = 5;

/** GET /api/user/authenticators: the phones paired with the account, and what a confirmation asks. */
export const pairedAuthenticators = z.object({
  /** Whether the confirmation needs a passcode (the account has an enrolled authenticator). */
  needsPasscode: z.boolean(),
  authenticators: z.array(
    z.object({
      id: z.string(),
      nickname: z.string(),
      pairedAt: z.string(),
      /** Paired less than 24 hours ago: cannot approve a password reset by itself yet. */
      isRecent: z.boolean(),
    }),
  ),
});
export type PairedAuthenticators = z.infer<typeof pairedAuthenticators>;

/** POST /api/user/authenticator/remove: unpairs one phone (needs a confirmation). */
export const removeAuthenticatorBody = z.strictObject({ id: z.uuid() });
export type RemoveAuthenticatorBody = z.infer<typeof removeAuthenticatorBody>;
export const removeAuthenticatorResponse = successResponse;

/** Hours a newly added factor cannot approve a password reset by itself. */
export const RECENT_FACTOR_HOURS = 24;

export const factorMessages = {
  confirmFirst: 'Confirm your password and passcode first',
  /** The same words as Change Password's and Forgot Password's, from one place each. */
  passwordIncorrect: profileMessages.incorrect,
  passcodeInvalid: recoveryMessages.badPasscode,
  pushNotApproved: 'The request was not approved on your phone',
  notFound: 'This phone is not paired with your account',
  paired: 'Phone paired. We emailed you about it.',
  removed: 'Phone removed. We emailed you about it.',
  /** Forgot Password: a push approved by a phone paired in the last 24 hours. */
  recentDevice:
    'This phone was paired less than 24 hours ago, so it cannot approve a password reset by itself. ' +
    'Use Send Password Reset Email: the link in the email completes the reset.',
} as const;
