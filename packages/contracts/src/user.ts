import { z } from 'zod';

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
  /** Where Log In sends the browser (the SAML login endpoint). */
  loginUrl: z.string(),
  type: accountType,
  /** False while the identity service is down or in maintenance. */
  iiqAvailable: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export { fullName } from './user-names';

export const ROLE_PREFIX = 'PRA - Vendor Access - ';
export const ROLE_SUFFIX = ' - BR';

/** The organization's access role name. */
export function roleName(orgName: string): string {
  return `${ROLE_PREFIX}${orgName}${ROLE_SUFFIX}`;
}

/** Group display name: strip the leading prefix and trailing suffix. */
export function groupDisplayName(name: string): string {
  let display = name.startsWith(ROLE_PREFIX) ? name.slice(ROLE_PREFIX.length) : name;
  if (display.endsWith(ROLE_SUFFIX)) display = display.slice(0, -ROLE_SUFFIX.length);
  return display;
}
