import type { CurrentUser } from '@pra/contracts';

type RoleFlags = Pick<CurrentUser, 'type' | 'isEmployeeBrm' | 'isAdmin'>;

/** BRM features (approvals, users, new user on behalf) belong to employee BRMs and admins. */
export function isBrmOrAdmin(user: RoleFlags): boolean {
  return user.isEmployeeBrm || user.isAdmin;
}

/** Vendor-only features (profile, manage access, vault) are refused to employees, BRMs and admins. */
export function isVendor(user: RoleFlags): boolean {
  return user.type === 'vendor' && !user.isEmployeeBrm && !user.isAdmin;
}

/** Administration belongs to admins (hospital employees); the server checks the same. */
export function isAdmin(user: RoleFlags): boolean {
  return user.type === 'employee' && user.isAdmin;
}
