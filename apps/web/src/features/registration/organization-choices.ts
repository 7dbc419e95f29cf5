import type { CurrentUser } from '@pra/contracts';
import { isBrmOrAdmin } from '../../lib/account-kinds';

export type Registrant = Pick<CurrentUser, 'orgs' | 'isAdmin' | 'isEmployeeBrm' | 'type'>;

/** Whether the person registers someone else (BRM or admin): no policy checkbox, own orgs only. */
export function registersOnBehalf(user: Registrant | undefined): boolean {
  return user !== undefined && isBrmOrAdmin(user);
}

/**
 * The organizations offered for an email domain: all of them to a self-registrant; to a BRM or an
 * admin, those the server says it acts for (`orgs`: a BRM's own, every active one for an admin, as
 * the server's organization policy computes them; the server refuses the others anyway).
 */
export function organizationChoices(domainOrgs: readonly string[], user: Registrant | undefined): string[] {
  if (!registersOnBehalf(user)) return [...domainOrgs];
  const own = new Set(user?.orgs);
  return domainOrgs.filter((org) => own.has(org));
}
