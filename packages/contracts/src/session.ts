import { z } from 'zod';
import { successResponse, type SuccessResponse } from './system';

/** GET /api/csrf: the synchronizer token to send back in `x-csrf-token` on state-changing calls. */
export const csrfResponse = z.object({ csrfToken: z.string() });
export type CsrfResponse = z.infer<typeof csrfResponse>;

/** GET /api/saml/is-authenticated. `remainingSessionExtentions` keeps the spec's spelling. */
export const authStatusResponse = z.object({
  isAuthenticated: z.boolean(),
  /** When the session ends (ISO date-time); absent for anonymous callers. */
  expires: z.iso.datetime().optional(),
  remainingSessionExtentions: z.number().int().min(0).optional(),
});
export type AuthStatusResponse = z.infer<typeof authStatusResponse>;

/** POST /api/user/extend-session: only `success: true` counts as extended. */
export const extendSessionResponse = successResponse;
export type ExtendSessionResponse = SuccessResponse;

/** GET /api/saml/logout: where the browser goes next (the IdP's logout), when there is one. */
export const logoutResponse = z.object({ redirectTo: z.string().optional() });
export type LogoutResponse = z.infer<typeof logoutResponse>;

export { sessionMessages } from './session-messages';
