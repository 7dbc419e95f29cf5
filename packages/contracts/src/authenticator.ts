import { z } from 'zod';
import { successResponse } from './system';
import { passcode } from './recovery';
import { plainText } from './text-fields';
import { inputText } from './text';
export { factorMessages } from './plain-texts';

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

/**
 * POST /api/user/authenticator/pair: the signed-in account pairs one more phone; needs the
 * confirmation of POST /api/user/authenticator/confirm, which it uses up.
 */
export const pairAuthenticatorBody = z.strictObject({
  nickname: plainText({ max: 64 }),
});
export type PairAuthenticatorBody = z.infer<typeof pairAuthenticatorBody>;
export const pairAuthenticatorResponse = z.object({
  /** The link the QR code carries; the device key is in its fragment (never sent to a server). */
  pairingUrl: z.string(),
  qrDataUrl: z.string(),
});
export type PairAuthenticatorResponse = z.infer<typeof pairAuthenticatorResponse>;

const deviceKey = inputText().min(20).max(100);

/** POST /api/authenticator/status: the paired phone asks what waits for it. */
export const authenticatorStatusBody = z.strictObject({ deviceKey });
export const authenticatorStatus = z.object({
  username: z.string(),
  nickname: z.string(),
  /** The current passcode of the account's authenticator, when it has a TOTP device. */
  passcode: z.string().optional(),
  secondsLeft: z.number().optional(),
  /**
   * A phone paired less than 24 hours ago is shown no passcode (it could approve a password
   * reset with it): the time from which it is.
   */
  passcodeFrom: z.string().optional(),
  requests: z.array(
    z.object({
      id: z.string(),
      /** `factor`: the owner confirms pairing or removing a phone. */
      purpose: z.enum(['signin', 'reset', 'factor']),
      clientAddress: z.string(),
      createdAt: z.string(),
    }),
  ),
});
export type AuthenticatorStatus = z.infer<typeof authenticatorStatus>;

/** POST /api/authenticator/answer: Approve or Deny one request. */
export const authenticatorAnswerBody = z.strictObject({
  deviceKey,
  id: z.uuid(),
  approve: z.boolean(),
});
export type AuthenticatorAnswerBody = z.infer<typeof authenticatorAnswerBody>;
export const authenticatorAnswerResponse = successResponse;

export const authenticatorMessages = {
  notPaired: 'This authenticator is not paired with an account. Pair it again from your profile.',
  gone: 'This request is no longer waiting for an answer.',
} as const;
