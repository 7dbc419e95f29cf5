import type { RawBuilder } from 'kysely';
import { isManager, type Actor, type Principal } from './actor';
import * as organization from './organization';

/**
 * What an actor may do with an item of a request (a registration, an Add or Remove Access
 * request; one item per organization):
 * - `decide`: approve or reject it, as its organization's manager (a vendor never, not even its own).
 * - `cancel`: withdraw it while pending: a vendor its own requests' items, a manager as `decide`.
 */
export type RequestAction = 'decide' | 'cancel';

export interface RequestItem {
  organizationId: string;
  /** The vendor account the request is about; null for a registration (no account yet). */
  beneficiaryId: string | null;
}

export function can(actor: Actor, action: RequestAction, item: RequestItem): boolean {
  if (!actor.isActive) return false;
  const decides = organization.can(actor, 'manage', { id: item.organizationId });
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

/** `decide` as a query condition on the request items under `alias` (e.g. 'i'): what Approvals lists. */
export function scopeOf(actor: Principal, alias: string): RawBuilder<boolean> {
  return organization.scopeOf(actor, `${alias}.organization_id`);
}
