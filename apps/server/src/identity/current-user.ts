import { api, type CurrentUser } from '@pra/contracts';
import type { AppContext } from '../platform/app-context';
import { isAdmin, isAuditor, isEmployeeBrm } from '../store/account-kinds';
import type { Account } from '../platform/db-schema';

/**
 * The current-user record of the spec's section 3, for any type of account; `orgs` as the session
 * plugin loaded them (route config `organizations: true`), with the admins' maintenance flag.
 */
export function currentUserRecord(
  ctx: AppContext,
  account: Account,
  orgs: string[],
  maintenanceFlag: boolean,
  /** The identity store's health (the hospital's directory answers); true for the built-in one. */
  directoryUp = true,
): CurrentUser {
  return {
    id: account.id,
    username: account.username,
    givenName: account.given_name,
    familyName: account.family_name,
    jobTitle: account.job_title,
    isActive: account.status === 'active',
    email: account.email,
    manager: account.manager,
    orgs,
    isEmployeeBrm: isEmployeeBrm(account),
    isAdmin: isAdmin(account),
    isAuditor: isAuditor(account),
    loginUrl: api.login,
    type: account.type,
    // The setting forces maintenance on; otherwise the flag admins switch; and the directory answers.
    iiqAvailable: !(ctx.config.IIQ_MAINTENANCE || maintenanceFlag) && directoryUp,
    // GOVERNANCE.md §8.2: the web sends a vendor whose acceptance is overdue to /attest.
    ...(account.type === 'vendor' && account.aup_overdue_since !== null ? { mustAcceptAup: true } : {}),
  };
}
