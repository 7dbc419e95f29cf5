import { z } from 'zod';
import { successResponse } from './system';
import { inputText } from './text';

/**
 * GET /api/user/auth: the current password is sent in the `username` and `password` headers (never
 * in the URL or a body that might be logged). `success` marks the session re-authenticated for a
 * few minutes; `authenticationFailure` means the password was wrong.
 */
export const reauthenticateResponse = z.object({
  authentication: z.enum(['success', 'authenticationFailure']),
});
export type ReauthenticateResponse = z.infer<typeof reauthenticateResponse>;

/** The headers GET /api/user/auth reads. */
export const reauthenticateHeaders = { username: 'username', password: 'password' } as const;

/** POST /api/user/auth/change-password: needs the re-authentication mark of GET /api/user/auth. */
export const changePasswordBody = z.strictObject({ newPassword: inputText().min(1).max(1024) });
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const changePasswordResponse = successResponse;
export type ChangePasswordResponse = z.infer<typeof changePasswordResponse>;

/** How long a confirmed current password allows a change (PRODUCT.md, "Change password"). */
export const REAUTHENTICATION_MINUTES = 5;

export const profileMessages = {
  incorrect: 'Current password is incorrect',
  changed: 'Successfully changed password',
  unexpected: 'Unexpected error while changing password',
  /** Change-password without a fresh confirmation of the current password. */
  reauthenticationRequired: 'Confirm your current password before changing it.',
  /** GET /api/user/auth for a username other than the signed-in one. */
  otherAccount: 'You can only confirm the password of your own account.',
  /** Too many wrong current passwords: the sign-in lockout applies. */
  /** The server adds when to try again. */
  locked: 'Too many failed sign-in attempts.',
  missingHeaders: 'The username and password headers are required.',
  currentRequired: 'Current password is required',
} as const;
