import type { CurrentUser } from '@pra/contracts';
import { routes } from '@pra/contracts/paths';
import { isAdmin, isAdminOrAuditor, isBrmOrAdmin, isEmployeeBrm, isVendor } from '../../lib/account-kinds';

/** The notice shown on BRM routes to people without a BRM role (spec, section 6). */
export const BRM_NOTICE =
  'BRM features are either not enabled for this server, or not enabled for user. If you feel this is in error, please contact your system administrator.';

/**
 * - `login`: any signed-in person (welcome).
 * - `registration`: public; signed-in people need the identity service (register on behalf).
 * - `vendor`: signed-in non-employees, account management (profile, manage access).
 * - `brm`: employee BRMs and admins (approvals, users).
 * - `employeeBrm`: employee BRMs only (terminate vendors).
 * - `admin`: admins (Administration); open while the identity service is in maintenance, as
 *   admins switch maintenance there.
 * - `reports`: admins and auditors (Administration → Reports, review evidence, the audit trail;
 *   GOVERNANCE.md §9.2), also while the identity service is down.
 * - `attest`: vendors (the Acceptable Use Policy). A vendor whose acceptance is overdue is sent
 *   there from every other signed-in route (GOVERNANCE.md §8.2).
 */
export type AccessRule =
  'login' | 'registration' | 'vendor' | 'brm' | 'employeeBrm' | 'admin' | 'reports' | 'attest';

export type AccessDecision =
  | { kind: 'allow' }
  /** The current-user record is still loading (or failed, which a toast reports): render nothing. */
  | { kind: 'wait' }
  /** Full browser navigation to the SAML login, returning to the current path. */
  | { kind: 'login' }
  | { kind: 'redirect'; to: string }
  | { kind: 'notice'; message: string };

type GuardUser = Pick<
  CurrentUser,
  'type' | 'isEmployeeBrm' | 'isAdmin' | 'iiqAvailable' | 'mustAcceptAup' | 'isAuditor'
>;

export interface AccessContext {
  isAuthenticated: boolean;
  user: GuardUser | undefined;
}

const allow: AccessDecision = { kind: 'allow' };
const toWelcome: AccessDecision = { kind: 'redirect', to: routes.welcome };
const toAttest: AccessDecision = { kind: 'redirect', to: routes.attest };

/** Decides what a route guard does; pure so each role/route pair is easy to test. */
export function decideAccess(rule: AccessRule, { isAuthenticated, user }: AccessContext): AccessDecision {
  if (rule === 'registration' && !isAuthenticated) return allow;
  if (!isAuthenticated) return { kind: 'login' };
  if (user?.mustAcceptAup && rule !== 'attest') return toAttest;
  if (rule === 'login') return allow;
  if (!user) return { kind: 'wait' };
  if (rule === 'attest') return isVendor(user) ? allow : toWelcome;
  if (rule === 'admin') return isAdmin(user) ? allow : toWelcome;
  if (rule === 'reports') return isAdminOrAuditor(user) ? allow : toWelcome;
  // Account-management routes make no sense while the identity service is down.
  if (!user.iiqAvailable) return toWelcome;
  switch (rule) {
    case 'registration':
      return allow;
    case 'vendor':
      return isVendor(user) ? allow : toWelcome;
    case 'brm':
      return isBrmOrAdmin(user) ? allow : { kind: 'notice', message: BRM_NOTICE };
    case 'employeeBrm':
      return isEmployeeBrm(user) ? allow : { kind: 'notice', message: BRM_NOTICE };
  }
}
