import * as kinds from '@pra/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Account } from '../platform/db-schema';

/**
 * Who is a vendor, an employee BRM, an admin, for everything on the server (guards, deciders,
 * queries, the current-user record): the contracts' rule applied to an account row. The accounts
 * table's check constraint also refuses the BRM and admin flags on vendor rows.
 */
export type AccountKinds = Pick<Account, 'type' | 'is_employee_brm' | 'is_admin'> &
  Partial<Pick<Account, 'is_auditor'>>;

const flags = (a: AccountKinds): kinds.AccountKinds => ({
  type: a.type,
  isEmployeeBrm: a.is_employee_brm,
  isAdmin: a.is_admin,
  isAuditor: a.is_auditor === true,
});

export const isVendor = (a: AccountKinds) => kinds.isVendor(flags(a));
export const isEmployeeBrm = (a: AccountKinds) => kinds.isEmployeeBrm(flags(a));
export const isAdmin = (a: AccountKinds) => kinds.isAdmin(flags(a));
export const isBrmOrAdmin = (a: AccountKinds) => kinds.isBrmOrAdmin(flags(a));
/** Governance's auditor (an employee flag, set on People): read-only everywhere. */
export const isAuditor = (a: Pick<Account, 'type' | 'is_auditor'>) => a.type === 'employee' && a.is_auditor;
/** Reports, review evidence, the audit trail (GOVERNANCE.md §9.2): admins and auditors. */
export const isAdminOrAuditor = (a: AccountKinds) => kinds.isAdminOrAuditor(flags(a));

/**
 * The same rule as a SQL condition on the accounts table under `alias`, for queries that pick
 * BRMs or admins (e.g. whom to mail about a registration).
 */
export function hasKindSql(alias: string, kind: 'employeeBrm' | 'admin'): RawBuilder<boolean> {
  const flag = kind === 'admin' ? 'is_admin' : 'is_employee_brm';
  return sql<boolean>`(${sql.ref(`${alias}.type`)} = 'employee' and ${sql.ref(`${alias}.${flag}`)})`;
}
