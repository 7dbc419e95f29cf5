import { z } from 'zod';
import { plainText, COMMENT_MAX_LENGTH } from './text-fields';
import { inputText } from './text';
import { usernameField } from './username';

/** A role the user holds (spec section 3, "Current role"): the role name and its display name. */
export const currentRole = z.object({
  name: z.string(),
  display: z.string(),
  /** Governance (additive): when the access ends (ISO instant) and its date in the hospital's time zone. */
  expiresAt: z.string().optional(),
  endsOn: z.string().optional(),
  /** Calendar days left in the hospital's time zone (0: ends today), computed by the server. */
  daysLeft: z.number().int().optional(),
  /** The sponsor of record; null: "No sponsor". */
  sponsor: z.object({ name: z.string(), email: z.string() }).nullable().optional(),
  /** An Extend Access request for this organization is pending. */
  extensionPending: z.boolean().optional(),
  /**
   * The organization's end-date policy today (YYYY-MM-DD): the default new end of an extension
   * (today + the tier's duration) and the latest end allowed (the tier's cap, the contract's end).
   */
  defaultEndsOn: z.string().optional(),
  maxEndsOn: z.string().optional(),
});
export type CurrentRole = z.infer<typeof currentRole>;

/** One item of a pending access request: the role's display name, who asked, Add or Remove. */
export const pendingAccessItem = z.object({
  display: z.string(),
  owner: z.string(),
  operation: z.enum(['Add', 'Remove', 'Extend']),
  /**
   * Additions (approval routing, GOVERNANCE.md §5.7): the deadline as an instant, and the
   * submission, last reminder and deadline as calendar dates (YYYY-MM-DD) in the hospital's time zone.
   */
  expiresAt: z.string(),
  remindedAt: z.string().nullable(),
  submittedOn: z.string(),
  remindedOn: z.string().nullable(),
  expiresOn: z.string(),
  /** An Extend item: the end date asked for (YYYY-MM-DD, hospital time). */
  requestedUntilOn: z.string().nullable().optional(),
});
export type PendingAccessItem = z.infer<typeof pendingAccessItem>;

/** A pending access request (its pending items). */
export const pendingAccessRequest = z.object({ id: z.string(), items: z.array(pendingAccessItem) });
export type PendingAccessRequest = z.infer<typeof pendingAccessRequest>;

/** A role that may be requested: its display name and full role name (prefix + organization + suffix). */
export const availableRole = z.object({ displayableName: z.string(), name: z.string() });
export type AvailableRole = z.infer<typeof availableRole>;

/** GET /api/vendor/access/current and /pending: whose access (`username`). */
export const accessQuery = z.strictObject({ username: usernameField() });
export type AccessQuery = z.infer<typeof accessQuery>;

/** GET /api/vendor/roles: `showAll=true` (admins only) offers every active organization's role. */
export const availableRolesQuery = accessQuery.extend({ showAll: z.enum(['true', 'false']).optional() });
export type AvailableRolesQuery = z.infer<typeof availableRolesQuery>;

export const currentAccessResponse = z.array(currentRole);
export const pendingAccessResponse = z.array(pendingAccessRequest);
export const availableRolesResponse = z.array(availableRole);

/** A justification or a reason: required, one line, at most COMMENT_MAX_LENGTH characters. */
export const accessReason = plainText({ max: COMMENT_MAX_LENGTH });

const selectedNames = z
  .array(inputText().trim().min(1).max(300))
  .min(1, 'Select at least one role')
  .max(100, 'Too many roles at once');

/** POST /api/vendor/access/request: add roles for the beneficiary (a request for BRMs, or at once by a manager). */
export const accessRequestBody = z.strictObject({
  selectedNames,
  justification: accessReason,
  beneficiaryUsername: usernameField(),
  /** The beneficiary's email as the screen knows it; when given it must be the account's. */
  beneficiaryEmail: inputText().trim().max(320).optional(),
});
export type AccessRequestBody = z.input<typeof accessRequestBody>;

/** POST /api/vendor/access/current/cancel: remove current roles (a Remove Access request, or at once by a manager). */
export const removeAccessBody = z.strictObject({
  selectedNames,
  justification: accessReason,
  beneficiaryUsername: usernameField(),
});
export type RemoveAccessBody = z.input<typeof removeAccessBody>;

/** POST /api/vendor/access/pending/cancel: withdraw a pending request, with a reason. */
export const cancelPendingBody = z.strictObject({
  requestId: z.string().uuid('Unknown request'),
  reason: accessReason,
});
export type CancelPendingBody = z.input<typeof cancelPendingBody>;

/**
 * The answer of the request and removal calls: the display names that failed and those that
 * succeeded (partial success is possible: a role taken or requested meanwhile fails alone).
 */
export const accessChangeResponse = z.object({
  errors: z.array(z.string()),
  successes: z.array(z.string()),
});
export type AccessChangeResponse = z.infer<typeof accessChangeResponse>;

export const cancelPendingResponse = z.object({ success: z.boolean() });
export type CancelPendingResponse = z.infer<typeof cancelPendingResponse>;

/** Texts of the Manage Access screen and its calls (spec section 8; the last-organization texts are ours). */
export const accessMessages = {
  requestSubmitted: 'Role request has been submitted',
  rolesAdded: 'Role(s) successfully added for user',
  roleRemoved: 'Role successfully removed for user',
  removeSubmitted: 'Remove role request submitted',
  cancelled: 'Cancelled request to add/remove role',
  partial: (failed: string[], succeeded: string[]) =>
    `Roles request failed for ${failed.join(', ')} / succeeded for ${succeeded.join(', ')}`,
  /** Spec section 6: a vendor may not give up its last organization. */
  lastRoleVendor:
    'You cannot remove your access to your last organization. Please contact PRA support if your account should be closed.',
  /** Spec section 6: a BRM or admin may not take a user's last organization here. */
  lastRoleManager: "This is the user's last organization. To remove it, use the Terminate Vendors feature.",
  unknownRole: (name: string) => `Unknown role: ${name}`,
  otherDomain: (display: string) => `The role ${display} is not available for this user's email domain`,
  notManaged: (display: string) => `You do not manage the organization ${display}`,
  alreadyHeld: (display: string) => `${display}: the user already has this role`,
  alreadyPending: (display: string) => `${display}: a request for this role is already pending`,
  notHeld: (display: string) => `${display}: the user does not have this role`,
  onlyOwnAccess: 'You can only manage your own access.',
  userNotFound: 'User not found',
  emailMismatch: "The email does not match the user's account",
  requestNotFound: 'This request was not found or is no longer pending.',
  noAccess: 'You have no access to this user.',
  empty: 'No roles available',
  noCurrent: 'No current access',
  noPending: 'No pending access requests',
} as const;

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
