import type { Tx } from '../platform/db';
import * as grants from '../store/grants';
import { recordAudit } from './audit';

/** Who changes a role and for whom, as the audit trail names them. */
interface RoleChange {
  actor: { id: string; username: string };
  account: { id: string; username: string };
  organizationId: string;
  /** The approved request item the change carries out (null when none does, e.g. Terminate Vendors). */
  requestItemId: string | null;
  clientAddress: string;
}

/** Gives the account the organization's role (once; a second grant changes nothing) and audits it. */
export async function grantRole(tx: Tx, change: RoleChange): Promise<void> {
  await grants.grantRole(tx, {
    accountId: change.account.id,
    organizationId: change.organizationId,
    grantedBy: change.actor.id,
    requestItemId: change.requestItemId,
  });
  await audit(tx, 'role.grant', change);
}

/** Takes the organization's role from the account and audits it. */
export async function removeRole(tx: Tx, change: RoleChange): Promise<void> {
  await grants.removeRole(tx, change.account.id, change.organizationId);
  await audit(tx, 'role.remove', change);
}

async function audit(tx: Tx, action: string, change: RoleChange): Promise<void> {
  await recordAudit(tx, {
    action,
    outcome: 'success',
    actor: change.actor,
    target: change.account,
    organizationId: change.organizationId,
    clientAddress: change.clientAddress,
    details: { requestItemId: change.requestItemId },
  });
}

/** Whether removing `removing` would leave the account without any organization (spec section 6). */
export function leavesNoRole(held: readonly string[], removing: Iterable<string>): boolean {
  const gone = new Set(removing);
  return held.length > 0 && held.every((id) => gone.has(id));
}
