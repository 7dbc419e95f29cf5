import type { CurrentUser, PendingApproval } from '@pra/contracts';

type Decider = Pick<CurrentUser, 'orgs' | 'isAdmin'>;

/**
 * Whether the person may approve or reject the item: admins may decide any, a BRM only items of
 * the organizations it manages. The server enforces the same rule; this only disables buttons.
 */
export function canDecide(user: Decider | undefined, item: Pick<PendingApproval, 'org'>): boolean {
  if (!user) return false;
  return user.isAdmin || user.orgs.includes(item.org);
}
