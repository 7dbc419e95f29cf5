import { accessMessages, groupDisplayName, roleName } from '@pra/contracts';
import { AppError, messages } from '../../platform/app-error';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import type { AuditEvent } from '../../identity/audit';
import { organizationsOfAccount } from '../../store/grants';
import { isManager, loadActor, type Actor } from '../../policies/actor';
import * as organization from '../../policies/organization';
import * as vendor from '../../policies/vendor';
import { findVendor } from '../../store/accounts';
import { organizationsNamed } from '../../store/organizations';

/** Whose access a call is about, and what the caller may change there. */
export interface AccessScope {
  actor: Account;
  beneficiary: Account;
  /** A vendor acting for itself: its changes become requests for the organizations' BRMs. */
  isSelf: boolean;
  /** The actor as the policies see it. */
  by: Actor;
}

/** A refusal to audit (see auditingDenials) before it is thrown. */
export type Deny = (event: Omit<AuditEvent, 'outcome'>) => void;

/**
 * Resolves `username` for the caller: a vendor may name only itself; a BRM or admin names a
 * vendor account it manages (managing another user); anyone else is refused. A vendor the caller
 * does not manage answers exactly as an unknown username does (404), so that a BRM learns no
 * usernames outside its organizations; the refusal is audited (`denied`).
 */
export async function resolveScope(
  db: Db | Tx,
  actor: Account,
  username: string,
  refusal: { deny: Deny; action: string; clientAddress: string },
): Promise<AccessScope> {
  const refuse = (target: { id: string | null; username: string }, reason: string) =>
    refusal.deny({
      action: refusal.action,
      actor: { id: actor.id, username: actor.username },
      target,
      clientAddress: refusal.clientAddress,
      details: { reason },
    });
  const by = await loadActor(db, actor);
  if (by.isVendor) {
    if (username.trim().toLowerCase() !== actor.username.toLowerCase()) {
      refuse({ id: null, username }, 'notOwnAccess');
      throw new AppError('forbidden', accessMessages.onlyOwnAccess);
    }
    return { actor, beneficiary: actor, isSelf: true, by };
  }
  if (!isManager(by)) throw new AppError('forbidden', messages.forbidden);
  const beneficiary = await findVendor(db, username);
  const held = beneficiary ? await organizationsOfAccount(db, beneficiary.id) : [];
  if (
    !beneficiary ||
    !vendor.can(by, 'manage', { status: beneficiary.status, organizationIds: held.map((o) => o.id) })
  ) {
    refuse(
      beneficiary ? { id: beneficiary.id, username: beneficiary.username } : { id: null, username },
      beneficiary ? 'notYourVendor' : 'notFound',
    );
    throw new AppError('notFound', accessMessages.userNotFound);
  }
  return { actor, beneficiary, isSelf: false, by };
}

/** Whether the scope's manager may change roles of the organization (always false for a vendor). */
export function manages(scope: AccessScope, organizationId: string): boolean {
  return !scope.isSelf && organization.can(scope.by, 'manage', { id: organizationId });
}

/** What a listing shows: a vendor sees all its own; a manager, the organizations it manages. */
export function visible(scope: AccessScope, organizationId: string): boolean {
  return scope.isSelf || manages(scope, organizationId);
}

/**
 * The organizations behind role names ('PRA - Vendor Access - {org} - BR'), each once. An unknown
 * name or an inactive organization's refuses the whole call with 400.
 */
export async function organizationsOfRoles(
  db: Db | Tx,
  names: readonly string[],
): Promise<{ id: string; name: string }[]> {
  const unique = [...new Set(names)];
  const displays = unique.map((name) => groupDisplayName(name));
  const found = await organizationsNamed(db, displays);
  const problems: string[] = [];
  const result: { id: string; name: string }[] = [];
  unique.forEach((name, index) => {
    const org = found.find((o) => o.name === displays[index]);
    if (!org || !org.is_active || roleName(org.name) !== name)
      problems.push(accessMessages.unknownRole(name));
    else result.push({ id: org.id, name: org.name });
  });
  if (problems.length > 0) throw AppError.many('badRequest', problems);
  return result;
}

/**
 * The organization behind one role name, active or not (an end-date call names a role the account
 * holds, whose organization may have been deactivated since); an unknown name refuses with 400.
 */
export async function organizationOfRole(
  db: Db | Tx,
  name: string,
): Promise<{ id: string; name: string; isActive: boolean }> {
  const [org] = await organizationsNamed(db, [groupDisplayName(name)]);
  if (!org || roleName(org.name) !== name) throw new AppError('badRequest', accessMessages.unknownRole(name));
  return { id: org.id, name: org.name, isActive: org.is_active };
}
