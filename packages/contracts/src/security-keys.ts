import { z } from 'zod';
import { pageOf } from './paging';
import { successResponse } from './system';

export { securityKeyPaths } from './paths';

export const securityKeyNickname = z.string().trim().min(1).max(64);

/** A key as the profile lists it. */
export const securityKey = z.object({
  id: z.string(),
  nickname: z.string(),
  addedAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** "This device" (single-device) or "synced" (a backed-up passkey), from the backup flags. */
  type: z.enum(['thisDevice', 'synced']),
});

export const securityKeyList = z.object({
  keys: z.array(securityKey),
  /** The enrolled authenticator app's nickname, or null. */
  authenticatorApp: z.string().nullable(),
  /** An organization of the account requires phishing-resistant sign-in. */
  required: z.boolean(),
  /** The organization that requires it (the card says "{Org} requires a security key or passkey."). */
  requiredBy: z.string().nullable(),
  /** Adding a key needs a confirmation with an existing key first (required accounts). */
  needsKeyConfirmation: z.boolean(),
  max: z.number().int(),
});
export type SecurityKeyList = z.infer<typeof securityKeyList>;

/** WebAuthn options as @simplewebauthn/browser takes them (`optionsJSON`). */
export const webauthnOptionsResponse = z.object({ options: z.looseObject({ challenge: z.string() }) });

/** The browser's JSON answer (@simplewebauthn/browser's result), checked by the server's verifier. */
export const webauthnCredential = z.looseObject({
  id: z.string().min(1).max(1400),
  rawId: z.string().max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(4000) }),
});

export const addSecurityKeyBody = z.strictObject({
  credential: webauthnCredential,
  nickname: securityKeyNickname,
});
export const addSecurityKeyResponse = z.object({ id: z.string(), nickname: z.string() });

export const confirmWithSecurityKeyBody = z.strictObject({ credential: webauthnCredential });

export const renameSecurityKeyBody = z.strictObject({ nickname: securityKeyNickname });

export const securityKeyParams = z.object({ id: z.uuid() });

export const securityKeyResponse = successResponse;

export { securityKeyMessages } from './plain-texts';

/** Forgot Password, "Security key or passkey": the bound account's key verifies the session. */
export const recoverySecurityKeyPaths = {
  options: '/api/user/forgot-password/security-key/options',
  verify: '/api/user/forgot-password/security-key/verify',
} as const;
export const recoveryKeyOptionsBody = z.strictObject({ username: z.string().min(1).max(255) });
export const recoveryKeyVerifyBody = z.strictObject({
  username: z.string().min(1).max(255),
  credential: webauthnCredential,
});
export const recoveryKeyVerifyResponse = z.object({
  result: z.enum(['success', 'failure', 'tooManyAttempts']),
  /** Why a failure failed, for the person (the key's own messages). */
  message: z.string().optional(),
});

/**
 * GET /api/admin/reports/sign-in-strength (admins and auditors): per organization with active
 * vendors, how many there are and how many have a security key or passkey (sign in
 * phishing-resistantly); `share` is that fraction (0 to 1).
 */
export const signInStrengthRow = z.object({
  id: z.string(),
  name: z.string(),
  riskTier: z.enum(['standard', 'high']),
  vendors: z.number().int(),
  phishingResistant: z.number().int(),
  share: z.number(),
});
export type SignInStrengthRow = z.infer<typeof signInStrengthRow>;
/** One page of the organizations (Administration → Reports → Sign-in Strength). */
export const signInStrengthReport = pageOf(signInStrengthRow);
export type SignInStrengthReport = z.infer<typeof signInStrengthReport>;
