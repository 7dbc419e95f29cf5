import type { CurrentUser } from '@pra/contracts';

/**
 * Who is a vendor, an employee BRM, an admin, decided here and nowhere else in the web app (route
 * guards, welcome cards and nav, approvals buttons, registration on behalf). The same rules as the
 * server's identity/account-kinds.ts: the BRM and admin flags count only on employee accounts.
 */
export type AccountKinds = Pick<CurrentUser, 'type' | 'isEmployeeBrm' | 'isAdmin'>;

/** Vendor-only features (profile, manage access, vault). */
export function isVendor(user: AccountKinds): boolean {
  return user.type === 'vendor';
}

/** Terminate Vendors belongs to employee BRMs only. */
export function isEmployeeBrm(user: AccountKinds): boolean {
  return user.type === 'employee' && user.isEmployeeBrm;
}

/** Admins see every organization and decide every request. */
export function isAdmin(user: AccountKinds): boolean {
  return user.type === 'employee' && user.isAdmin;
}

/** BRM features (approvals, users, new user on behalf) belong to employee BRMs and admins. */
export function isBrmOrAdmin(user: AccountKinds): boolean {
  return isEmployeeBrm(user) || isAdmin(user);
}
