import type { CurrentUser, PendingApproval } from '@pra/contracts';
import { isAdmin, isEmployeeBrm, type AccountKinds } from '../../lib/account-kinds';

type Decider = Pick<CurrentUser, 'orgs'> & AccountKinds;

/**
 * Whether the person may approve or reject the item: admins may decide any, an employee BRM only
 * items of the organizations it manages (a vendor's orgs are the roles it holds: no). The server enforces the same rule; this only disables buttons.
 */
export function canDecide(user: Decider | undefined, item: Pick<PendingApproval, 'org'>): boolean {
  if (!user) return false;
  return isAdmin(user) || (isEmployeeBrm(user) && user.orgs.includes(item.org));
}
