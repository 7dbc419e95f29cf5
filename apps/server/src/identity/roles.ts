import type { Tx } from '../platform/db';
import { enableAfterNoAccess } from '../store/accounts';
import { endReplacedEmergency } from '../store/emergencies';
import * as grants from '../store/grants';
import { cancelPendingExtensions, settleCancelledRequest } from '../store/requests';
import { recordAudit } from './audit';

/** Who changes a role and for whom, as the audit trail names them. */
interface RoleChange {
  actor: { id: string; username: string };
  account: { id: string; username: string };
  organizationId: string;
  /** The approved request item the change carries out (null when none does, e.g. Terminate Vendors). */
  requestItemId: string | null;
  clientAddress: string;
  /** When the change happens (the clock's instant). */
  at: Date;
}

/**
 * Gives the account the organization's role until `expiresAt` with the actor as its sponsor of
 * record (once; a second grant changes nothing) and audits it. An account the sweeper disabled for
 * having no access left is enabled again (within the 30 days before it is closed).
 *
 * Emergency access (GOVERNANCE.md §10.1): with `emergencyId` the grant is made only when the
 * account holds none of the organization (false otherwise, nothing changed: an emergency never
 * extends an ordinary grant); an ordinary grant made while an emergency grant is current replaces
 * it, and the emergency ends (`emergency.end`, reason `replaced`).
 */
export async function grantRole(
  tx: Tx,
  change: RoleChange & { expiresAt: Date; emergencyId?: string },
): Promise<boolean> {
  const outcome = await grants.grantRole(tx, {
    accountId: change.account.id,
    organizationId: change.organizationId,
    grantedBy: change.actor.id,
    requestItemId: change.requestItemId,
    at: change.at,
    expiresAt: change.expiresAt,
    ...(change.emergencyId ? { emergencyId: change.emergencyId } : {}),
  });
  if (outcome === 'existing' && change.emergencyId) return false;
  await audit(tx, 'role.grant', change, {
    expiresAt: change.expiresAt.toISOString(),
    sponsorId: change.actor.id,
  });
  if (outcome === 'replacedEmergency') {
    const replaced = await endReplacedEmergency(tx, {
      accountId: change.account.id,
      organizationId: change.organizationId,
      at: change.at,
      endedBy: change.actor.id,
    });
    if (replaced) {
      await audit(tx, 'emergency.end', change, { emergencyId: replaced.id, reason: 'replaced' });
    }
  }
  if (await enableAfterNoAccess(tx, change.account.id, change.at)) {
    await recordAudit(tx, {
      action: 'account.enable',
      outcome: 'success',
      actor: change.actor,
      target: change.account,
      clientAddress: change.clientAddress,
      details: { reason: 'grantAdded' },
    });
  }
  return true;
}

/**
 * Takes the organization's role from the account (the grant moves to grant_history, `removed`, or
 * `terminated` when Terminate Vendors ends the account) and audits it. A pending extension of the
 * grant is cancelled ("Access ended": there is nothing left to extend).
 */
export async function removeRole(
  tx: Tx,
  change: RoleChange & { reason?: 'removed' | 'terminated' | 'revoked' },
): Promise<void> {
  await grants.endGrant(tx, {
    account_id: change.account.id,
    organization_id: change.organizationId,
    at: change.at,
    reason: change.reason ?? 'removed',
    endedBy: change.actor.id,
  });
  await audit(tx, 'role.remove', change);
  const requests = await cancelPendingExtensions(tx, {
    accountId: change.account.id,
    organizationId: change.organizationId,
    actorId: change.actor.id,
    reason: ACCESS_ENDED,
    at: change.at,
  });
  for (const requestId of requests) await settleCancelledRequest(tx, requestId);
}

/** Why a pending extension was closed when its grant was removed (GOVERNANCE.md §3.3). */
export const ACCESS_ENDED = 'Access ended';

async function audit(
  tx: Tx,
  action: string,
  change: RoleChange,
  extra: Record<string, string | null> = {},
): Promise<void> {
  await recordAudit(tx, {
    action,
    outcome: 'success',
    actor: change.actor,
    target: change.account,
    organizationId: change.organizationId,
    clientAddress: change.clientAddress,
    details: { requestItemId: change.requestItemId, ...extra },
  });
}

/** Whether removing `removing` would leave the account without any organization (spec section 6). */
export function leavesNoRole(held: readonly string[], removing: Iterable<string>): boolean {
  const gone = new Set(removing);
  return held.length > 0 && held.every((id) => gone.has(id));
}
