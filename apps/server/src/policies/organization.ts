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

/**
 * The organizations a person acts for, as the SQL text of the prepared session lookup (written
 * once, not built: see http/session-queries.ts), on the active account under alias `a`: every
 * active organization for an admin, a BRM's assigned ones (`manage` above), a vendor's held roles.
 * Names, sorted; null without an active account.
 */
export const organizationsActedForSql = `case
    when a.id is null then null
    when a.type = 'employee' and a.is_admin then
      array(select o.name from organizations o where o.is_active order by o.name)
    when a.type = 'employee' then
      array(select o.name from brm_assignments b join organizations o on o.id = b.organization_id
            where b.account_id = a.id order by o.name)
    else
      array(select o.name from role_grants g join organizations o on o.id = g.organization_id
            where g.account_id = a.id order by o.name)
  end`;
