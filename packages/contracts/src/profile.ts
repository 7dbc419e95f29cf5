import { z } from 'zod';
import { successResponse } from './system';
import { inputText } from './text';
export { profileMessages, reauthenticateHeaders } from './plain-texts';

/**
 * GET /api/user/auth: the current password is sent in the `username` and `password` headers (never
 * in the URL or a body that might be logged). `success` marks the session re-authenticated for a
 * few minutes; `authenticationFailure` means the password was wrong.
 */
export const reauthenticateResponse = z.object({
  authentication: z.enum(['success', 'authenticationFailure']),
});
export type ReauthenticateResponse = z.infer<typeof reauthenticateResponse>;

/** POST /api/user/auth/change-password: needs the re-authentication mark of GET /api/user/auth. */
export const changePasswordBody = z.strictObject({ newPassword: inputText().min(1).max(1024) });
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const changePasswordResponse = successResponse;
export type ChangePasswordResponse = z.infer<typeof changePasswordResponse>;

/** How long a confirmed current password allows a change (PRODUCT.md, "Change password"). */
export const REAUTHENTICATION_MINUTES = 5;
