import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { AccountStatus } from '../platform/db-schema';
import { isManager, type Actor, type Principal } from './actor';
import * as organization from './organization';

/**
 * What an actor may do with a vendor account (Manage Users, Manage Access for another user,
 * Terminate Vendors). A terminated vendor is no one's to act on.
 * - `manage`: see it among one's users, enable it, mail it a reset link, change its roles in the
 *   organizations one manages: an admin every vendor, a BRM a vendor holding the role of at least
 *   one organization it manages (a vendor pending activation already holds the role it registered for).
 * - `disable`: as `manage`, but a BRM only when it manages every organization whose role the vendor
 *   holds: disabling ends the other organizations' access as well.
 * - `resetActivationCode`: as `manage`, admins only (spec section 6).
 * - `terminate`: remove the roles it holds of organizations one may terminate vendors for.
 */
export type VendorAction = 'manage' | 'disable' | 'resetActivationCode' | 'terminate';

export interface VendorItem {
  status: AccountStatus;
  /** The organizations whose role the vendor holds. */
  organizationIds: readonly string[];
}

export function can(actor: Actor, action: VendorAction, vendor: VendorItem): boolean {
  if (!isManager(actor) || vendor.status === 'terminated') return false;
  const manages = (id: string) => organization.can(actor, 'manage', { id });
  const managed = actor.isAdmin || vendor.organizationIds.some(manages);
  switch (action) {
    case 'manage':
      return managed;
    case 'disable':
      return managed && (actor.isAdmin || vendor.organizationIds.every(manages));
    case 'resetActivationCode':
      return managed && resetsActivationCodes(actor);
    case 'terminate':
      return vendor.organizationIds.some((id) => organization.can(actor, 'terminateVendors', { id }));
  }
}

/** Whether the actor resets activation codes at all (admins), asked before any vendor is looked up. */
export function resetsActivationCodes(actor: Principal): boolean {
  return isManager(actor) && actor.isAdmin;
}

/**
 * `manage` as a query condition on the accounts under `alias` (e.g. 'a'): vendors, not terminated,
 * every one for an admin, for a BRM those holding a role of an organization it manages.
 */
export function scopeOf(actor: Principal, alias: string): RawBuilder<boolean> {
  if (!isManager(actor)) return sql<boolean>`false`;
  if (actor.isAdmin) return liveVendors(alias);
  return liveVendors(alias, organization.scopeOf(actor, 'g.organization_id'));
}

/** The account under `alias` is a live (non-terminated) vendor, whatever its grants. */
export function liveVendorAccount(alias: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${alias}.type`)} = 'vendor' and ${sql.ref(`${alias}.status`)} <> 'terminated'`;
}

/**
 * The live (non-terminated) vendors under `alias`; with `grantCondition`, those holding a role
 * grant `g` that meets it. From the organizations to their vendors (role_grants by organization),
 * not the other way.
 */
function liveVendors(alias: string, grantCondition?: RawBuilder<boolean>): RawBuilder<boolean> {
  const account = (column: string) => sql.ref(`${alias}.${column}`);
  const vendor = liveVendorAccount(alias);
  if (!grantCondition) return sql<boolean>`(${vendor})`;
  return sql<boolean>`(${vendor} and ${account('id')} in (select g.account_id from role_grants g where ${grantCondition}))`;
}

/** `manage`'s scope as a condition and a key that names it (`pinnedScopeOf`). */
export interface PinnedScope {
  /** Equal for two actors exactly when they manage the same vendors. */
  key: string;
  condition: RawBuilder<boolean>;
  /**
   * A BRM's scope: the organizations whose live vendors it is (the condition says the same), so
   * that counts of several BRMs' scopes can be read together (store/vendor-counts.ts).
   */
  organizationIds?: readonly string[];
}

/**
 * `scopeOf` with the BRM's organizations as the actor was loaded with them, not read again by the
 * query: the key names the scope, so a count of it can be kept under the key for everyone with the
 * same scope (store/vendor-counts.ts).
 */
export function pinnedScopeOf(actor: Actor, alias: string): PinnedScope {
  if (!isManager(actor)) return { key: 'none', condition: sql<boolean>`false` };
  if (actor.isAdmin) return { key: 'all', condition: liveVendors(alias) };
  const ids = [...actor.managedOrganizationIds].sort();
  if (ids.length === 0) return { key: 'none', condition: sql<boolean>`false` };
  return {
    // A BRM of hundreds of organizations: the key stays a few bytes, whatever their number.
    key: `organizations:${createHash('sha256').update(ids.join(',')).digest('base64url')}`,
    condition: pinnedOrganizationsScope(ids, alias),
    organizationIds: ids,
  };
}

/** The live vendors under `alias` holding a role grant of one of the organizations `ids`. */
export function pinnedOrganizationsScope(ids: readonly string[], alias: string): RawBuilder<boolean> {
  return liveVendors(alias, sql<boolean>`g.organization_id = any(${ids}::uuid[])`);
}
