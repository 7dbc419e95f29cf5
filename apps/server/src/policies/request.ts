import { sql, type RawBuilder } from 'kysely';
import { isManager, type Actor, type DelegatedRight, type Principal } from './actor';
import * as organization from './organization';

/**
 * What an actor may do with an item of a request (a registration, an Add or Remove Access
 * request; one item per organization):
 * - `decide`: approve or reject it (a vendor never, not even its own): an admin (the InfoSec
 *   queue); a primary BRM of its organization; a backup BRM once the item is forwarded; a BRM to
 *   whom such a BRM delegated (Away and Backup: active now, covering the item), on their behalf.
 * - `cancel`: withdraw it while pending: a vendor its own requests' items, a manager as `decide`.
 */
export type RequestAction = 'decide' | 'cancel';

export interface RequestItem {
  organizationId: string;
  /** The vendor account the request is about; null for a registration (no account yet). */
  beneficiaryId: string | null;
  /** Forwarded to the organization's backup BRMs (or InfoSec); absent: not. */
  forwarded?: boolean;
  /** When it was submitted (a delegation without "Also move my pending items" covers later ones only). */
  createdAt?: Date;
}

/** Whether the actor decides the item in its own right (not on someone's behalf). */
function decidesDirectly(actor: Actor, item: RequestItem): boolean {
  if (!organization.can(actor, 'manage', { id: item.organizationId })) return false;
  return actor.isAdmin || !actor.backupOrganizationIds.has(item.organizationId) || item.forwarded === true;
}

function covers(d: DelegatedRight, item: RequestItem): boolean {
  const organization =
    d.primary.has(item.organizationId) || (d.backup.has(item.organizationId) && item.forwarded === true);
  return organization && (d.movesPending || (item.createdAt !== undefined && item.createdAt >= d.startsAt));
}

/**
 * The BRM on whose behalf the actor decides the item (a delegate's decision), or null when it
 * decides in its own right or not at all.
 */
export function onBehalfOf(actor: Actor, item: RequestItem): string | null {
  if (!isManager(actor) || !actor.isEmployeeBrm || decidesDirectly(actor, item)) return null;
  return actor.delegatedFrom.find((d) => covers(d, item))?.delegatorName ?? null;
}

export function can(actor: Actor, action: RequestAction, item: RequestItem): boolean {
  if (!actor.isActive) return false;
  const decides = decidesDirectly(actor, item) || onBehalfOf(actor, item) !== null;
  if (action === 'decide') return decides;
  return actor.isVendor ? item.beneficiaryId === actor.id : decides;
}

/**
 * Whether the actor learns that the request exists: a vendor only of its own (another's reads as
 * not found), a manager of any (and is refused the items it may not act on).
 */
export function canSee(actor: Principal, request: Pick<RequestItem, 'beneficiaryId'>): boolean {
  if (!actor.isActive) return false;
  return actor.isVendor ? request.beneficiaryId === actor.id : isManager(actor);
}

/**
 * `decide` as a query condition on the request items under `alias` (e.g. 'i'): what Approvals
 * lists. A principal without delegations (not loaded with `loadDecider`) decides in its own right only.
 */
export function scopeOf(
  actor: Principal & Partial<Pick<Actor, 'delegatedFrom' | 'backupOrganizationIds'>>,
  alias: string,
): RawBuilder<boolean> {
  if (!isManager(actor)) return sql<boolean>`false`;
  if (actor.isAdmin) return sql<boolean>`true`;
  const item = (column: string) => sql.ref(`${alias}.${column}`);
  // A backup assignment counts once the item is forwarded. The condition on the item inside the
  // subquery keeps PostgreSQL from an index-driven semi-join (it filters every pending item), so
  // it is written only for an account whose backups are not known (a delegator).
  const assignedTo = (accountId: string, mayBeBackup: boolean) =>
    mayBeBackup
      ? sql<boolean>`${item('organization_id')} in (select b.organization_id from brm_assignments b
      where b.account_id = ${accountId} and (b.kind = 'primary' or ${item('forwarded_at')} is not null))`
      : sql<boolean>`${item('organization_id')} in (select b.organization_id from brm_assignments b
      where b.account_id = ${accountId} and b.kind = 'primary')`;
  const delegated = (actor.isEmployeeBrm ? (actor.delegatedFrom ?? []) : []).map(
    (d) =>
      sql<boolean>`(${assignedTo(d.delegatorId, true)} and (${d.movesPending} or ${item('created_at')} >= ${d.startsAt}))`,
  );
  // An account known to back up some organizations: items of any of its organizations (an
  // uncorrelated, index-driven semi-join), those of the ones it backs up once forwarded (a filter
  // on those rows alone). Written with the correlated condition above, PostgreSQL read every
  // pending item with its request (list-plans.test.ts).
  const backups = actor.backupOrganizationIds;
  const own =
    backups && backups.size > 0
      ? sql<boolean>`(${item('organization_id')} in (select b.organization_id from brm_assignments b
      where b.account_id = ${actor.id}) and (${item('forwarded_at')} is not null
      or not (${item('organization_id')} = any(${[...backups]}::uuid[]))))`
      : assignedTo(actor.id, backups === undefined);
  return sql<boolean>`(${sql.join([own, ...delegated], sql` or `)})`;
}
