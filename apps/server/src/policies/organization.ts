import { sql, type RawBuilder } from 'kysely';
import { isManager, type Actor, type Principal } from './actor';

/**
 * What an actor may do for an organization:
 * - `manage`: decide its requests, register its vendors on their behalf, change its vendors'
 *   roles, manage its vendor users. An admin manages every organization, a BRM those assigned.
 * - `terminateVendors`: remove its roles with Terminate Vendors, an employee BRM's tool (spec
 *   section 6): a BRM for the organizations assigned to it, an admin as such for none.
 */
export type OrganizationAction = 'manage' | 'terminateVendors';

export interface OrganizationItem {
  id: string;
}

export function can(actor: Actor, action: OrganizationAction, organization: OrganizationItem): boolean {
  if (!isManager(actor)) return false;
  const assigned = actor.isEmployeeBrm && actor.managedOrganizationIds.has(organization.id);
  switch (action) {
    case 'manage':
      return actor.isAdmin || assigned;
    case 'terminateVendors':
      return assigned;
  }
}

/**
 * Whether the actor gives vendors roles of organizations that do not own the vendor's email
 * domain (and is offered every active organization's role): admins.
 */
export function grantsOutsideDomain(actor: Principal): boolean {
  return isManager(actor) && actor.isAdmin;
}

/**
 * `manage` as a query condition on an organization id column (e.g. 'i.organization_id'): true
 * for an admin, the BRM's assignments for a BRM (read in the same query), false for anyone else.
 */
export function scopeOf(actor: Principal, organizationIdColumn: string): RawBuilder<boolean> {
  if (!isManager(actor)) return sql<boolean>`false`;
  if (actor.isAdmin) return sql<boolean>`true`;
  return sql<boolean>`${sql.ref(organizationIdColumn)} in (select b.organization_id from brm_assignments b where b.account_id = ${actor.id})`;
}

// The same rule as SQL text for the prepared session lookup is store/session-lookup.ts's
// organizationsActedForSql; user-routes.test.ts checks the organizations it answers per kind.
