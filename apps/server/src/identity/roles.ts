import type { Db, Tx } from '../platform/db';
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
  await tx
    .insertInto('role_grants')
    .values({
      account_id: change.account.id,
      organization_id: change.organizationId,
      granted_by: change.actor.id,
      request_item_id: change.requestItemId,
    })
    .onConflict((oc) => oc.columns(['account_id', 'organization_id']).doNothing())
    .execute();
  await audit(tx, 'role.grant', change);
}

/** Takes the organization's role from the account and audits it. */
export async function removeRole(tx: Tx, change: RoleChange): Promise<void> {
  await tx
    .deleteFrom('role_grants')
    .where('account_id', '=', change.account.id)
    .where('organization_id', '=', change.organizationId)
    .execute();
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

/** Active organizations owning an email domain, by name (registration's choices, a vendor's roles). */
export async function activeOrganizationsForDomain(
  db: Db | Tx,
  domain: string,
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('organizations as o')
    .innerJoin('organization_domains as d', 'd.organization_id', 'o.id')
    .select(['o.id', 'o.name'])
    .where('d.domain', '=', domain.toLowerCase())
    .where('o.is_active', '=', true)
    .orderBy('o.name')
    .execute();
}

/** The organizations whose role the account holds, by name. */
export async function organizationsOfAccount(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('role_grants as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .select(['o.id', 'o.name'])
    .where('g.account_id', '=', accountId)
    .orderBy('o.name')
    .execute();
}

/**
 * The organizations whose role the account holds, read with the account row locked for the rest of
 * the transaction: two changes of one person's roles (a removal approved while another is made)
 * take turns, so the last-organization rule sees the other's result.
 */
export async function lockedRoleOrganizations(tx: Tx, accountId: string): Promise<string[]> {
  await tx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
  const rows = await tx
    .selectFrom('role_grants')
    .select('organization_id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.organization_id);
}

/** Whether removing `removing` would leave the account without any organization (spec section 6). */
export function leavesNoRole(held: readonly string[], removing: Iterable<string>): boolean {
  const gone = new Set(removing);
  return held.length > 0 && held.every((id) => gone.has(id));
}
