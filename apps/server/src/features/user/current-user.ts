import { api, type CurrentUser } from '@pra/contracts';
import type { AppContext } from '../../http/context';
import { organizationsOf } from '../../identity/accounts';
import { isInMaintenance } from '../../identity/maintenance';
import type { Account } from '../../platform/db-schema';

/** The current-user record of the spec's section 3, for any type of account. */
export async function loadCurrentUser(ctx: AppContext, account: Account): Promise<CurrentUser> {
  return {
    id: account.id,
    username: account.username,
    givenName: account.given_name,
    familyName: account.family_name,
    jobTitle: account.job_title,
    isActive: account.status === 'active',
    email: account.email,
    manager: account.manager,
    orgs: await organizationsOf(ctx.db, account),
    isEmployeeBrm: account.type === 'employee' && account.is_employee_brm,
    isAdmin: account.type === 'employee' && account.is_admin,
    loginUrl: api.login,
    type: account.type,
    iiqAvailable: !(await isInMaintenance(ctx)),
  };
}
