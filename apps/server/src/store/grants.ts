import type { Db, Tx } from '../platform/db';
import { hasKindSql } from './account-kinds';
import { inChunks } from './chunks';

// The owner of `role_grants` (a vendor holds an organization's role) and `brm_assignments` (an
// employee BRM manages an organization).

/** Gives the account the organization's role (once; a second grant changes nothing). */
export async function grantRole(
  tx: Tx,
  grant: { accountId: string; organizationId: string; grantedBy: string; requestItemId: string | null },
): Promise<void> {
  await tx
    .insertInto('role_grants')
    .values({
      account_id: grant.accountId,
      organization_id: grant.organizationId,
      granted_by: grant.grantedBy,
      request_item_id: grant.requestItemId,
    })
    .onConflict((oc) => oc.columns(['account_id', 'organization_id']).doNothing())
    .execute();
}

/** Takes the organization's role from the account. */
export async function removeRole(tx: Tx, accountId: string, organizationId: string): Promise<void> {
  await tx
    .deleteFrom('role_grants')
    .where('account_id', '=', accountId)
    .where('organization_id', '=', organizationId)
    .execute();
}

/** Takes every role of `organizationIds` from every one of `accountIds`, in one statement. */
export async function removeRolesIn(
  tx: Tx,
  accountIds: readonly string[],
  organizationIds: readonly string[],
): Promise<void> {
  if (accountIds.length === 0 || organizationIds.length === 0) return;
  await tx
    .deleteFrom('role_grants')
    .where('account_id', 'in', accountIds)
    .where('organization_id', 'in', organizationIds)
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

/** The ids of the organizations the account manages as a BRM. */
export async function managedOrganizationIds(db: Db | Tx, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('brm_assignments')
    .select('organization_id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.organization_id);
}

/** The emails of the organization's active BRMs. */
export async function activeBrmEmails(db: Db | Tx, organizationId: string): Promise<string[]> {
  const brms = await db
    .selectFrom('accounts as a')
    .innerJoin('brm_assignments as b', 'b.account_id', 'a.id')
    .select('a.email')
    .where('b.organization_id', '=', organizationId)
    .where('a.status', '=', 'active')
    .where(hasKindSql('a', 'employeeBrm'))
    .execute();
  return brms.map((r) => r.email);
}

/** The organizations an employee BRM manages, by name. */
export async function managedOrganizations(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('brm_assignments as b')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select(['o.id', 'o.name'])
    .where('b.account_id', '=', accountId)
    .orderBy('o.name')
    .execute();
}

/** Which organizations' roles each of the accounts holds. */
export async function grantsOf(db: Db | Tx, accountIds: readonly string[]) {
  return inChunks(accountIds, (chunk) =>
    db
      .selectFrom('role_grants')
      .select(['account_id', 'organization_id'])
      .where('account_id', 'in', chunk)
      .execute(),
  );
}

export async function insertAssignment(tx: Tx, accountId: string, organizationId: string): Promise<boolean> {
  const result = await tx
    .insertInto('brm_assignments')
    .values({ account_id: accountId, organization_id: organizationId })
    .onConflict((oc) => oc.columns(['account_id', 'organization_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteAssignment(tx: Tx, accountId: string, organizationId: string): Promise<boolean> {
  const result = await tx
    .deleteFrom('brm_assignments')
    .where('account_id', '=', accountId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Makes the employee a BRM of the organization (the demo data: the pair is new). */
export async function insertBrmAssignment(tx: Tx, accountId: string, organizationId: string): Promise<void> {
  await tx
    .insertInto('brm_assignments')
    .values({ account_id: accountId, organization_id: organizationId })
    .execute();
}

/** Gives the vendor the organization's role, granted by nobody (the demo data: the pair is new). */
export async function insertRoleGrant(tx: Tx, accountId: string, organizationId: string): Promise<void> {
  await tx
    .insertInto('role_grants')
    .values({
      account_id: accountId,
      organization_id: organizationId,
      granted_by: null,
      request_item_id: null,
    })
    .execute();
}
