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

export const accountType = z.enum(['vendor', 'employee']);
export type AccountType = z.infer<typeof accountType>;

/** GET /api/user: the signed-in person as the spec's section 3 describes them. */
export const currentUser = z.object({
  id: z.string(),
  username: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  jobTitle: z.string(),
  isActive: z.boolean(),
  email: z.string(),
  manager: z.string(),
  /** Organizations: a vendor's held roles, a BRM's managed organizations, every one for an admin. */
  orgs: z.array(z.string()),
  isEmployeeBrm: z.boolean(),
  isAdmin: z.boolean(),
  /** Governance's read-only auditor (GOVERNANCE.md §2.5): every change call answers 403. Additive. */
  isAuditor: z.boolean().optional(),
  /** Where Log In sends the browser (the SAML login endpoint). */
  loginUrl: z.string(),
  type: accountType,
  /** False while the identity service is down or in maintenance. */
  iiqAvailable: z.boolean(),
  /** A vendor whose Acceptable Use Policy acceptance is overdue (GOVERNANCE.md §8.2). Additive. */
  mustAcceptAup: z.boolean().optional(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export { fullName } from './user-names';
