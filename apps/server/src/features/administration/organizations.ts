import {
  adminMessages,
  changeOrganizationBody,
  type ChangeOrganizationBody,
  createOrganizationBody,
  normalizeDomain,
  organizationDomain,
  roleName,
} from '@pra/contracts';
import { AppError } from '../../platform/app-error';
import { isUniqueViolation } from '../../platform/db-errors';
import { recordAudit } from '../../identity/audit';
import type { Db, Tx } from '../../platform/db';
import type { Actor } from './actor';
import { valid } from './valid';
import { countGrantsEndingAfter } from '../../store/access-ending';
import { endOfLocalDay, localDate } from '../../platform/local-time';
import {
  deleteDomain,
  findOrganizationById,
  findOrganizationForUpdate,
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

/**
 * The unique index on organizations' lower(name) (migration 0001). The checks below run before the
 * write; two admins creating or renaming to one name at once both pass them, and the index refuses
 * the second: that is the same conflict, not a failure.
 */
const NAME_INDEX = 'organizations_name_key';

/** Rethrows a taken name as the conflict the check would have answered; anything else as it is. */
function nameTaken(name: string) {
  return (error: unknown): never => {
    if (isUniqueViolation(error, NAME_INDEX))
      throw new AppError('conflict', adminMessages.organizationExists(name));
    throw error;
  };
}

export async function createOrganization(tx: Tx, actor: Actor, input: { name: string; domains: string[] }) {
  const { name, domains } = valid(createOrganizationBody, input);
  if (await findOrganizationByName(tx, name))
    throw new AppError('conflict', adminMessages.organizationExists(name));
  const id = await insertOrganization(tx, name).catch(nameTaken(name));
  const org = { id, name };
  await audit(tx, actor, 'organization.create', org, { roleName: roleName(name) });
  for (const domain of domains) await addDomain(tx, actor, org, domain);
  return org;
}

/** The app's time for a change that compares dates (the contract end): now and the hospital's zone. */
export interface ChangeTime {
  now: Date;
  zone: string;
}

/**
 * Renames (the access role name follows, as it is derived from the name), (de)activates, and sets
 * the risk tier and the contract end date (GOVERNANCE.md §2.3). The row is locked first, so two
 * admins changing it at once apply one after the other, each audited with what it changed from.
 * Answers how many current grants end after a new contract end: they are shown, not cut.
 */
export async function changeOrganization(
  tx: Tx,
  actor: Actor,
  ref: { id?: string; name?: string },
  input: ChangeOrganizationBody,
  time?: ChangeTime,
): Promise<{ id: string; name: string; grantsPastContractEnd: number }> {
  const change = valid(changeOrganizationBody, input);
  const found = await requireOrganization(tx, ref);
  const org = (await findOrganizationForUpdate(tx, found.id)) ?? found;
  const newName = change.name;
  if (newName && newName !== org.name) {
    const clash = await findOrganizationByName(tx, newName);
    if (clash && clash.id !== org.id)
      throw new AppError('conflict', adminMessages.organizationExists(newName));
    await updateOrganization(tx, org.id, { name: newName }).catch(nameTaken(newName));
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
  const current = { id: org.id, name: newName ?? org.name };
  if (change.isActive !== undefined && change.isActive !== org.is_active) {
    await updateOrganization(tx, org.id, { is_active: change.isActive });
    await audit(tx, actor, change.isActive ? 'organization.reactivate' : 'organization.deactivate', current);
  }
  if (change.riskTier !== undefined && change.riskTier !== org.risk_tier) {
    await updateOrganization(tx, org.id, { risk_tier: change.riskTier });
    await audit(tx, actor, 'org.tier-change', current, { from: org.risk_tier, to: change.riskTier });
  }
  let grantsPastContractEnd = 0;
  if (change.contractEndsOn !== undefined && change.contractEndsOn !== org.contract_ends_on) {
    const to = change.contractEndsOn;
    if (to !== null) {
      if (!time) throw new Error('changeOrganization: a contract end needs the app’s time');
      if (to < localDate(time.now, time.zone))
        throw new AppError('badRequest', `contractEndsOn: ${adminMessages.contractEndInPast}`);
      grantsPastContractEnd = await countGrantsEndingAfter(tx, org.id, endOfLocalDay(to, time.zone));
    }
    await updateOrganization(tx, org.id, { contract_ends_on: to });
    await audit(tx, actor, 'org.contract-end-change', current, {
      from: org.contract_ends_on,
      to,
      ...(to === null ? {} : { grantsPastContractEnd }),
    });
  }
  return { ...current, grantsPastContractEnd };
}
