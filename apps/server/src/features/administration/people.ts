import { adminMessages, changePersonBody, personBody } from '@pra/contracts';
import { AppError } from '../../platform/app-error';
import * as sessions from '../../store/sessions';
import { findAccountById, findAccountByUsername } from '../../store/accounts';
import { recordAudit } from '../../identity/audit';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import type { Actor } from './actor';
import { valid } from './valid';
import { requireOrganization } from './organizations';
import { countActiveAdmins, insertEmployee, updateEmployee } from '../../store/accounts';
import { deleteAssignment, insertAssignment, managedOrganizationIds } from '../../store/grants';
import { organizationsLeftWithoutBrm } from '../../store/organizations';

/**
 * Hospital employees the portal keeps (BRMs and admins, matched to the IdP by username), their
 * flags and the organizations each BRM manages. Shared by the admin API and the CLI.
 */

export interface PersonInput {
  username: string;
  givenName: string;
  familyName: string;
  email: string;
  isEmployeeBrm: boolean;
  isAdmin: boolean;
  /** Governance's read-only auditor (GOVERNANCE.md §2.5); false when not given. */
  isAuditor?: boolean;
}

async function audit(
  tx: Tx,
  actor: Actor,
  action: string,
  person: Account | { id: string; username: string },
  details = {},
  organizationId: string | null = null,
) {
  await recordAudit(tx, {
    action,
    outcome: 'success',
    actor,
    target: { id: person.id, username: person.username },
    organizationId,
    clientAddress: actor.clientAddress,
    details,
  });
}

export async function requireEmployee(
  tx: Db | Tx,
  ref: { id?: string; username?: string },
): Promise<Account> {
  const account = ref.id
    ? await findAccountById(tx, ref.id)
    : await findAccountByUsername(tx, ref.username ?? '');
  if (!account) {
    throw new AppError(
      'notFound',
      ref.id ? adminMessages.personIdNotFound : adminMessages.personNotFound(ref.username ?? ''),
    );
  }
  if (account.type !== 'employee')
    throw new AppError('conflict', adminMessages.notAnEmployee(account.username));
  return account;
}

export async function createPerson(tx: Tx, actor: Actor, given: PersonInput): Promise<Account> {
  const input = valid(personBody, given);
  if (await findAccountByUsername(tx, input.username)) {
    throw new AppError('conflict', adminMessages.usernameTaken(input.username));
  }
  const id = await insertEmployee(tx, {
    username: input.username,
    given_name: input.givenName,
    family_name: input.familyName,
    email: input.email,
    is_employee_brm: input.isEmployeeBrm,
    is_admin: input.isAdmin,
    is_auditor: input.isAuditor,
  });
  const person = await requireEmployee(tx, { id });
  await audit(tx, actor, 'person.create', person, {
    isEmployeeBrm: input.isEmployeeBrm,
    isAdmin: input.isAdmin,
    ...(input.isAuditor ? { isAuditor: true } : {}),
  });
  return person;
}

/** Refuses a change that would leave organizations without a BRM, naming them. */
async function ensureReplacement(tx: Tx, person: Account, organizationIds: string[]): Promise<void> {
  const orphaned = await organizationsLeftWithoutBrm(tx, person.id, organizationIds);
  if (orphaned.length > 0) throw new AppError('conflict', adminMessages.lastBrm(orphaned));
}

export async function changePerson(
  tx: Tx,
  actor: Actor,
  person: Account,
  input: Partial<Omit<PersonInput, 'username'>>,
): Promise<void> {
  const change = valid(changePersonBody, input);
  if (change.isAdmin === false && person.is_admin) {
    if (actor.id === person.id) throw new AppError('conflict', adminMessages.notYourself);
    if ((await countActiveAdmins(tx, person.id)) === 0)
      throw new AppError('conflict', adminMessages.lastAdmin);
  }
  if (change.isAuditor === true && !person.is_auditor) {
    // An auditor changes nothing: making oneself one, or the last admin who can make changes, would
    // leave nobody to undo it.
    if (actor.id === person.id) throw new AppError('conflict', adminMessages.auditorYourself);
    if (person.is_admin && change.isAdmin !== false && (await countActiveAdmins(tx, person.id)) === 0)
      throw new AppError('conflict', adminMessages.lastChangingAdmin);
  }
  if (change.isEmployeeBrm === false && person.is_employee_brm) {
    await ensureReplacement(tx, person, await managedOrganizationIds(tx, person.id));
  }
  const set = {
    ...(change.givenName !== undefined && { given_name: change.givenName }),
    ...(change.familyName !== undefined && { family_name: change.familyName }),
    ...(change.email !== undefined && { email: change.email }),
    ...(change.isEmployeeBrm !== undefined && { is_employee_brm: change.isEmployeeBrm }),
    ...(change.isAdmin !== undefined && { is_admin: change.isAdmin }),
    ...(change.isAuditor !== undefined && { is_auditor: change.isAuditor }),
  };
  if (Object.keys(set).length === 0) return;
  await updateEmployee(tx, person.id, set);
  await audit(tx, actor, 'person.change', person, set);
  if (change.isAuditor !== undefined && change.isAuditor !== person.is_auditor)
    await audit(tx, actor, change.isAuditor ? 'person.auditor-set' : 'person.auditor-clear', person);
}

export async function assignBrm(
  tx: Tx,
  actor: Actor,
  person: Account,
  organization: { id?: string; name?: string },
) {
  const org = await requireOrganization(tx, organization);
  if (!person.is_employee_brm) {
    await updateEmployee(tx, person.id, { is_employee_brm: true });
    await audit(tx, actor, 'person.change', person, { is_employee_brm: true });
  }
  if (await insertAssignment(tx, person.id, org.id)) {
    await audit(tx, actor, 'brm.assign', person, { organization: org.name }, org.id);
  }
  return org;
}

export async function unassignBrm(
  tx: Tx,
  actor: Actor,
  person: Account,
  organization: { id?: string; name?: string },
) {
  const org = await requireOrganization(tx, organization);
  await ensureReplacement(tx, person, [org.id]);
  if (await deleteAssignment(tx, person.id, org.id)) {
    await audit(tx, actor, 'brm.remove', person, { organization: org.name }, org.id);
  }
  return org;
}

/** Makes a BRM manage exactly these organizations (by name). */
export async function setManagedOrganizations(tx: Tx, actor: Actor, person: Account, names: string[]) {
  const wanted = await Promise.all(names.map((name) => requireOrganization(tx, { name })));
  const current = await managedOrganizationIds(tx, person.id);
  const wantedIds = new Set(wanted.map((o) => o.id));
  await ensureReplacement(
    tx,
    person,
    current.filter((id) => !wantedIds.has(id)),
  );
  for (const id of current.filter((id) => !wantedIds.has(id))) await unassignBrm(tx, actor, person, { id });
  for (const org of wanted) await assignBrm(tx, actor, person, { id: org.id });
}

/**
 * Removes an employee from the portal: terminated, without flags or assignments (the row stays,
 * as requests and audit events name it). Refused while it is the last BRM of an organization.
 */
export async function removePerson(tx: Tx, actor: Actor, person: Account): Promise<void> {
  if (actor.id === person.id) throw new AppError('conflict', adminMessages.notYourself);
  if (person.is_admin && (await countActiveAdmins(tx, person.id)) === 0) {
    throw new AppError('conflict', adminMessages.lastAdmin);
  }
  const managed = await managedOrganizationIds(tx, person.id);
  await ensureReplacement(tx, person, managed);
  for (const id of managed) await deleteAssignment(tx, person.id, id);
  await updateEmployee(tx, person.id, { is_employee_brm: false, is_admin: false, status: 'terminated' });
  await sessions.revokeAllOf(tx, person.id);
  await audit(tx, actor, 'person.remove', person, { organizations: managed.length });
}
