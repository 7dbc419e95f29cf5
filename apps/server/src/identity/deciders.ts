import type { Db, Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { isAdmin, isEmployeeBrm } from '../store/account-kinds';
import { activeAdminEmails } from '../store/accounts';
import { activeBrmEmails, managedOrganizationIds, organizationsOfAccount } from '../store/grants';

/** Who decides: an admin decides everything, a BRM the items of the organizations it manages. */
export interface Decider {
  isAdmin: boolean;
  isEmployeeBrm: boolean;
  managedOrganizationIds: ReadonlySet<string>;
}

/** A request item, as far as the decision rule cares. */
export interface DecidableItem {
  organizationId: string;
}

/**
 * Whether the person may approve or reject the item — or, what amounts to the same, register a
 * vendor of its organization on the vendor's behalf. Checked by the server, whatever the UI shows.
 */
export function canDecide(actor: Decider, item: DecidableItem): boolean {
  if (actor.isAdmin) return true;
  return actor.isEmployeeBrm && actor.managedOrganizationIds.has(item.organizationId);
}

/**
 * Whether the person may act on a vendor (Manage Users): an admin on any vendor, a BRM on a
 * vendor holding the role of at least one organization it manages (a vendor pending activation
 * already holds the role of the organization it registered for).
 */
export function canManageVendor(actor: Decider, vendorOrganizationIds: readonly string[]): boolean {
  if (actor.isAdmin) return true;
  return actor.isEmployeeBrm && vendorOrganizationIds.some((id) => actor.managedOrganizationIds.has(id));
}

/**
 * Whether the decider manages the vendor (see canManageVendor), read from the roles it holds: the
 * one rule behind Manage Users and Manage Access for another user.
 */
export async function managesVendor(db: Db | Tx, actor: Decider, vendorId: string): Promise<boolean> {
  if (actor.isAdmin) return true;
  if (!actor.isEmployeeBrm) return false;
  const held = await organizationsOfAccount(db, vendorId);
  return canManageVendor(
    actor,
    held.map((o) => o.id),
  );
}

/** The account as `canDecide` sees it, with the organizations it manages. */
export async function deciderOf(db: Db | Tx, account: Account): Promise<Decider> {
  return {
    isAdmin: isAdmin(account),
    isEmployeeBrm: isEmployeeBrm(account),
    managedOrganizationIds: new Set(await managedOrganizationIds(db, account.id)),
  };
}

/**
 * Whom to mail about a request of the organization (a registration, an access request): its active BRMs, or — when it has none — the
 * active admins, so that no registration waits unseen.
 */
export async function decidersOf(db: Db | Tx, organizationId: string): Promise<string[]> {
  const brms = await activeBrmEmails(db, organizationId);
  if (brms.length > 0) return brms;
  return activeAdminEmails(db);
}
