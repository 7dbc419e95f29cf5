import type { Db, Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { isAdmin, isEmployeeBrm, isVendor } from '../store/account-kinds';
import { managedOrganizationIds } from '../store/grants';

/**
 * Who acts, as every policy sees it: the kinds of account (contracts' rule), whether it is active,
 * its id. Enough for a policy's query condition (`scopeOf`), which reads the BRM's organizations
 * in the same query.
 */
export interface Principal {
  id: string;
  /** Only an active account acts (the session lookup already treats any other as anonymous). */
  isActive: boolean;
  isVendor: boolean;
  isEmployeeBrm: boolean;
  isAdmin: boolean;
}

/** The principal with the organizations it manages as a BRM: what `can(actor, …)` decides on. */
export interface Actor extends Principal {
  managedOrganizationIds: ReadonlySet<string>;
}

type ActorAccount = Pick<Account, 'id' | 'status' | 'type' | 'is_employee_brm' | 'is_admin'>;

export function principalOf(account: ActorAccount): Principal {
  return {
    id: account.id,
    isActive: account.status === 'active',
    isVendor: isVendor(account),
    isEmployeeBrm: isEmployeeBrm(account),
    isAdmin: isAdmin(account),
  };
}

/** The actor from its account and the organizations assigned to it as a BRM. */
export function actorOf(account: ActorAccount, managedOrganizationIds: Iterable<string>): Actor {
  return { ...principalOf(account), managedOrganizationIds: new Set(managedOrganizationIds) };
}

/** The actor, its BRM assignments read when it is a BRM (nobody else's count). */
export async function loadActor(db: Db | Tx, account: ActorAccount): Promise<Actor> {
  const principal = principalOf(account);
  const managed = principal.isEmployeeBrm ? await managedOrganizationIds(db, account.id) : [];
  return { ...principal, managedOrganizationIds: new Set(managed) };
}

/** A BRM or an admin: someone who acts for organizations, not for itself. */
export function isManager(actor: Principal): boolean {
  return actor.isActive && (actor.isAdmin || actor.isEmployeeBrm);
}
