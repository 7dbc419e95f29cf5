import { sql, type RawBuilder } from 'kysely';
import type { Account } from '../platform/db-schema';

/**
 * Who is a vendor, an employee BRM, an admin: decided here and nowhere else (guards, deciders,
 * queries and the current-user record all ask this module). The BRM and admin flags count only on
 * employee accounts; the accounts table's check constraint also refuses them on vendor rows.
 */
export type AccountKinds = Pick<Account, 'type' | 'is_employee_brm' | 'is_admin'>;

export function isVendor(account: AccountKinds): boolean {
  return account.type === 'vendor';
}

export function isEmployeeBrm(account: AccountKinds): boolean {
  return account.type === 'employee' && account.is_employee_brm;
}

export function isAdmin(account: AccountKinds): boolean {
  return account.type === 'employee' && account.is_admin;
}

/** BRM features (approvals, users, registering on a vendor's behalf). */
export function isBrmOrAdmin(account: AccountKinds): boolean {
  return isEmployeeBrm(account) || isAdmin(account);
}

/**
 * The same rules as a SQL condition on the accounts table under `alias`, for queries that pick
 * BRMs or admins (e.g. whom to mail about a registration).
 */
export function hasKindSql(alias: string, kind: 'employeeBrm' | 'admin'): RawBuilder<boolean> {
  const flag = kind === 'admin' ? 'is_admin' : 'is_employee_brm';
  return sql<boolean>`(${sql.ref(`${alias}.type`)} = 'employee' and ${sql.ref(`${alias}.${flag}`)})`;
}
