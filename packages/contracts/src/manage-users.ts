import { z } from 'zod';
import { pageOf, pageQuery } from './paging';
import { inputText } from './text';
import { successResponse } from './system';
import { usernameField } from './username';

/** A username as the manager's calls name it (looked up case-insensitively). */
const targetUsername = usernameField();

/**
 * One vendor account a BRM or admin manages (spec section 3, "Managed user"). `status` is an
 * addition to the spec's fields: `active` is false both for a disabled account and for one still
 * waiting for activation, and the actions differ between the two. So are the caller's rights on
 * the account (`canManage`, `canResetActivationCode`), computed by the server's
 * vendor policy: the page offers what they allow, without a rule of its own.
 */
export const managedUser = z.object({
  username: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  email: z.string(),
  /** Whether the account may sign in (status `active`). */
  active: z.boolean(),
  status: z.enum(['pendingActivation', 'active', 'disabled']),
  /** Enable or disable, send a reset link, manage access (in the caller's organizations). */
  canManage: z.boolean(),
  /** Reset the activation code (admins). */
  canResetActivationCode: z.boolean(),
  /** When the vendor last signed in (GOVERNANCE.md §6.7); null: never. */
  lastSignInAt: z.string().nullable().optional(),
  /** Why a disabled account is disabled: `manual`, `noAccess`, `inactive`, `departureReported`. */
  disabledReason: z.enum(['manual', 'noAccess', 'inactive', 'departureReported']).nullable().optional(),
  disabledAt: z.string().nullable().optional(),
  /** An active vendor warned for inactivity: the last day a sign-in keeps the account. */
  signInDueBy: z.string().optional(),
  /** The strongest second factor the vendor has (GOVERNANCE.md §7.3); labels: `signInMethodLabels`. */
  signInMethod: z.enum(['securityKey', 'authenticatorApp', 'none']).optional(),
  /**
   * An organization where the vendor holds access requires a security key or passkey: Reset
   * Sign-in Methods needs the identity check and gives a new activation code (GOVERNANCE.md §7.3).
   */
  keyRequired: z.boolean().optional(),
});
export type ManagedUser = z.infer<typeof managedUser>;

/** View Details' "Sign-in method" values (GOVERNANCE.md §7.3). */
export const signInMethodLabels = {
  securityKey: 'Security key',
  authenticatorApp: 'Authenticator app',
  none: 'None',
} as const;

/** GET /api/brm/users: the vendors the caller manages (a BRM: of its organizations; an admin: all). */
export const managedUsersResponse = z.array(managedUser);
export type ManagedUsersResponse = z.infer<typeof managedUsersResponse>;

/** The sortable columns of Manage Users (spec: Username, First Name, Last Name, Email, Status). */
export const managedUserSortKeys = ['username', 'givenName', 'familyName', 'email', 'status'] as const;
export type ManagedUserSortKey = (typeof managedUserSortKeys)[number];

/**
 * GET /api/brm/users?page=&size=&filter=&sort=&direction=: one page of the vendors (sorted by
 * username unless `sort` names another column; the filter matches username, email or name).
 * Without any of them the call answers the spec's whole list (`managedUsersResponse`).
 */
export const managedUsersQuery = pageQuery(managedUserSortKeys);
export type ManagedUsersQuery = z.input<typeof managedUsersQuery>;

/** The paged answer; `total` is every vendor the caller manages ("Managing N users"). */
export const managedUsersPage = pageOf(managedUser);
export type ManagedUsersPage = z.infer<typeof managedUsersPage>;

/** POST /api/brm/users/enable-or-disable */
export const enableOrDisableBody = z.strictObject({ enable: z.boolean(), targetUsername });
export type EnableOrDisableBody = z.infer<typeof enableOrDisableBody>;

/** POST /api/brm/users/send-otp-email: mails the vendor a single-use password-reset link. */
export const sendOtpEmailBody = z.strictObject({
  email: inputText().trim().max(255, 'Max 255 characters').pipe(z.email('Invalid email')),
  username: targetUsername,
});
export type SendOtpEmailBody = z.infer<typeof sendOtpEmailBody>;

/** POST /api/brm/users/reset-activation-code (admins; accounts pending activation). */
export const resetActivationCodeBody = z.strictObject({ username: targetUsername });
export type ResetActivationCodeBody = z.infer<typeof resetActivationCodeBody>;

/**
 * POST /api/brm/users/reset-sign-in-methods (admins): removes the vendor's security keys,
 * passkeys and authenticator apps. `identityVerified` records the admin's identity check; it is
 * required when the account must sign in phishing-resistantly (that account also gets a new
 * activation code instead of enrolling again at its next sign-in).
 */
export const resetSignInMethodsBody = z.strictObject({
  username: targetUsername,
  identityVerified: z.boolean(),
});
export type ResetSignInMethodsBody = z.infer<typeof resetSignInMethodsBody>;

/** The answer of the three manager actions. */
export const manageUserResponse = successResponse;
export type ManageUserResponse = z.infer<typeof manageUserResponse>;

export const manageUsersMessages = {
  /** Text above the table; N is the number of users listed. */
  managing: (count: number) => `Managing ${count} users`,
  empty: 'No users found',
  enabled: (username: string) => `User ${username} is now enabled`,
  disabled: (username: string) => `User ${username} is now disabled`,
  resetSent: 'Reset e-mail sent',
  activationReset: 'Successfully reset activation code',
  userNotFound: 'User not found.',
  /** A BRM disabling a vendor that also holds roles of organizations it does not manage. */
  disableShared:
    'This user also has access through organizations you do not manage: use Terminate Vendors to remove the access of your organizations.',
  notAdmin: 'Only an administrator can reset an activation code.',
  notPending: 'The account is not waiting for activation.',
  notActive: 'The account is not active.',
  pendingCannotToggle: 'The account is waiting for activation: it cannot be enabled or disabled yet.',
  emailMismatch: 'The email does not match the account.',
  signInMethodsReset: (username: string) => `Sign-in methods of ${username} reset`,
  notAdminSignInReset: 'Only an administrator can reset sign-in methods.',
  /** Reset Sign-in Methods' dialog (GOVERNANCE.md §7.3). */
  resetSignInMethodsText: (name: string) =>
    `This removes all of ${name}'s security keys and authenticator apps. They will set new ones at their next sign-in.`,
  identityVerified: (name: string) => `I verified ${name}'s identity`,
  newActivationCodeNote: (name: string) =>
    `An organization requires ${name} to sign in with a security key or passkey: they get a new activation code.`,
  identityCheckRequired:
    'This account requires a security key or passkey: confirm that you verified the person’s identity.',
} as const;
