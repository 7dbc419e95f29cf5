import type { CurrentUser } from './session';

/**
 * Who is a vendor, an employee BRM, an admin: the one rule the server (identity/account-kinds.ts,
 * over its account rows) and the web app (app/account-kinds.ts, over the current-user record)
 * both apply. The BRM and admin flags count only on employee accounts.
 */
export type AccountKinds = Pick<CurrentUser, 'type' | 'isEmployeeBrm' | 'isAdmin'> &
  Partial<Pick<CurrentUser, 'isAuditor'>>;

/** Vendor-only features (profile, manage access, vault). */
export function isVendor(account: AccountKinds): boolean {
  return account.type === 'vendor';
}

/** Terminate Vendors belongs to employee BRMs only. */
export function isEmployeeBrm(account: AccountKinds): boolean {
  return account.type === 'employee' && account.isEmployeeBrm;
}

/** Admins see every organization and decide every request. */
export function isAdmin(account: AccountKinds): boolean {
  return account.type === 'employee' && account.isAdmin;
}

/** BRM features (approvals, users, registering on a vendor's behalf): employee BRMs and admins. */
export function isBrmOrAdmin(account: AccountKinds): boolean {
  return isEmployeeBrm(account) || isAdmin(account);
}

/** Governance's auditor (GOVERNANCE.md §2.5): an employee flag, with or without the admin flag. */
export function isAuditor(account: AccountKinds): boolean {
  return account.type === 'employee' && account.isAuditor === true;
}

/** Reports, review evidence and the audit trail (GOVERNANCE.md §9.2): admins and auditors. */
export function isAdminOrAuditor(account: AccountKinds): boolean {
  return isAdmin(account) || isAuditor(account);
}
