import {
  adminMessages,
  changeOrganizationBody,
  createOrganizationBody,
  normalizeDomain,
  organizationDomain,
  roleName,
} from '@pra/contracts';
import { AppError } from '../../platform/app-error';
import { recordAudit } from '../../identity/audit';
import type { Db, Tx } from '../../platform/db';
import type { Actor } from './actor';
import { valid } from './valid';
import {
  deleteDomain,
  findOrganizationById,
  findOrganizationByName,
  insertDomain,
  insertOrganization,
  updateOrganization,
} from '../../store/organizations';

/**
 * Changes to organizations and their email domains, each audited in the caller's transaction.
 * Shared by the admin API and the operators' CLI.
 */

async function audit(tx: Tx, actor: Actor, action: string, org: { id: string; name: string }, details = {}) {
  await recordAudit(tx, {
    action,
    outcome: 'success',
    actor,
    organizationId: org.id,
    clientAddress: actor.clientAddress,
    details: { organization: org.name, ...details },
  });
}

export async function requireOrganization(tx: Db | Tx, ref: { id?: string; name?: string }) {
  const org = ref.id
    ? await findOrganizationById(tx, ref.id)
    : await findOrganizationByName(tx, ref.name ?? '');
  if (!org)
    throw new AppError(
      'notFound',
      ref.id ? adminMessages.organizationIdNotFound : adminMessages.organizationNotFound(ref.name ?? ''),
    );
  return org;
}

/**
 * Adds a domain to an organization; a domain already there is left alone (returns false). A
 * domain may belong to several organizations (one vendor company holding several contracts): the
 * registration's organization list and the roles a vendor may request are all those owning it.
 */
export async function addDomain(tx: Tx, actor: Actor, org: { id: string; name: string }, input: string) {
  const domain = valid(organizationDomain, input);
  if (!(await insertDomain(tx, org.id, domain))) return false;
  await audit(tx, actor, 'organization.domain.add', org, { domain });
  return true;
}

export async function removeDomain(tx: Tx, actor: Actor, org: { id: string; name: string }, input: string) {
  const domain = normalizeDomain(input) ?? input;
  if (!(await deleteDomain(tx, org.id, domain)))
    throw new AppError('notFound', adminMessages.domainNotOnOrganization(domain));
  await audit(tx, actor, 'organization.domain.remove', org, { domain });
}

export async function createOrganization(tx: Tx, actor: Actor, input: { name: string; domains: string[] }) {
  const { name, domains } = valid(createOrganizationBody, input);
  if (await findOrganizationByName(tx, name))
    throw new AppError('conflict', adminMessages.organizationExists(name));
  const id = await insertOrganization(tx, name);
  const org = { id, name };
  await audit(tx, actor, 'organization.create', org, { roleName: roleName(name) });
  for (const domain of domains) await addDomain(tx, actor, org, domain);
  return org;
}

/** Renames (the access role name follows, as it is derived from the name) and/or (de)activates. */
export async function changeOrganization(
  tx: Tx,
  actor: Actor,
  ref: { id?: string; name?: string },
  input: { name?: string | undefined; isActive?: boolean | undefined },
) {
  const change = valid(changeOrganizationBody, input);
  const org = await requireOrganization(tx, ref);
  const newName = change.name;
  if (newName && newName !== org.name) {
    const clash = await findOrganizationByName(tx, newName);
    if (clash && clash.id !== org.id)
      throw new AppError('conflict', adminMessages.organizationExists(newName));
    await updateOrganization(tx, org.id, { name: newName });
    await audit(
      tx,
      actor,
      'organization.rename',
      { id: org.id, name: newName },
      {
        from: org.name,
        roleName: roleName(newName),
      },
    );
  }
  if (change.isActive !== undefined && change.isActive !== org.is_active) {
    await updateOrganization(tx, org.id, { is_active: change.isActive });
    await audit(tx, actor, change.isActive ? 'organization.reactivate' : 'organization.deactivate', {
      id: org.id,
      name: newName ?? org.name,
    });
  }
  return { id: org.id, name: newName ?? org.name };
}
