import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';

/** Reads and writes of organizations, domains, employees and BRM assignments. */

export async function findOrganizationByName(db: Db | Tx, name: string) {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where(sql<string>`lower(name)`, '=', name.trim().toLowerCase())
    .executeTakeFirst();
}

export async function findOrganizationById(db: Db | Tx, id: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertOrganization(tx: Tx, name: string): Promise<string> {
  const row = await tx.insertInto('organizations').values({ name }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateOrganization(
  tx: Tx,
  id: string,
  change: { name?: string; is_active?: boolean },
): Promise<void> {
  await tx.updateTable('organizations').set(change).where('id', '=', id).execute();
}

/** Adds a domain to an organization; false when the organization already has it. */
export async function insertDomain(tx: Tx, organizationId: string, domain: string): Promise<boolean> {
  const row = await tx
    .insertInto('organization_domains')
    .values({ organization_id: organizationId, domain })
    .onConflict((oc) => oc.doNothing())
    .returning('domain')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteDomain(tx: Tx, organizationId: string, domain: string): Promise<boolean> {
  const result = await tx
    .deleteFrom('organization_domains')
    .where('organization_id', '=', organizationId)
    .where('domain', '=', domain)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Organizations with their domains and BRMs, by name; `filter` matches name or domain. */
export async function listOrganizations(db: Db | Tx, filter?: string) {
  let query = db
    .selectFrom('organizations as o')
    .select((eb) => [
      'o.id',
      'o.name',
      'o.is_active',
      eb
        .selectFrom('organization_domains as d')
        .select(sql<string[]>`coalesce(array_agg(d.domain order by d.domain), '{}')`.as('v'))
        .whereRef('d.organization_id', '=', 'o.id')
        .as('domains'),
      eb
        .selectFrom('brm_assignments as b')
        .innerJoin('accounts as a', 'a.id', 'b.account_id')
        .select(sql<string[]>`coalesce(array_agg(a.username order by a.username), '{}')`.as('v'))
        .whereRef('b.organization_id', '=', 'o.id')
        .as('brms'),
    ])
    .orderBy(sql`lower(o.name)`);
  const text = filter?.trim().toLowerCase();
  if (text) {
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(o.name)`, 'like', like),
        eb.exists(
          eb
            .selectFrom('organization_domains as d2')
            .select('d2.domain')
            .whereRef('d2.organization_id', '=', 'o.id')
            .where('d2.domain', 'like', like),
        ),
      ]),
    );
  }
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, domains: row.domains ?? [], brms: row.brms ?? [] }));
}

/** Hospital employees with their managed organizations, by username. */
export async function listEmployees(db: Db | Tx) {
  return db
    .selectFrom('accounts as a')
    .select((eb) => [
      'a.id',
      'a.username',
      'a.given_name',
      'a.family_name',
      'a.email',
      'a.is_employee_brm',
      'a.is_admin',
      'a.status',
      eb
        .selectFrom('brm_assignments as b')
        .innerJoin('organizations as o', 'o.id', 'b.organization_id')
        .select(sql<string[]>`coalesce(array_agg(o.name order by o.name), '{}')`.as('v'))
        .whereRef('b.account_id', '=', 'a.id')
        .as('organizations'),
    ])
    .where('a.type', '=', 'employee')
    .orderBy(sql`lower(a.username)`)
    .execute();
}

export async function insertEmployee(
  tx: Tx,
  person: {
    username: string;
    given_name: string;
    family_name: string;
    email: string;
    is_employee_brm: boolean;
    is_admin: boolean;
  },
): Promise<string> {
  // No password: employees sign in through the hospital's IdP (standalone: `admin set-password`).
  const row = await tx
    .insertInto('accounts')
    .values({ ...person, type: 'employee', status: 'active', password_hash: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEmployee(
  tx: Tx,
  id: string,
  change: Partial<{
    given_name: string;
    family_name: string;
    email: string;
    is_employee_brm: boolean;
    is_admin: boolean;
    status: 'active' | 'terminated';
  }>,
): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({ ...change, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function assignedOrganizationIds(db: Db | Tx, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('brm_assignments')
    .select('organization_id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.organization_id);
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

/**
 * Of the given organizations, those that would have no active BRM left without
 * `accountId`. Their rows are locked first, so two admins cannot each remove one of the last two.
 */
export async function organizationsLeftWithoutBrm(
  tx: Tx,
  accountId: string,
  organizationIds: string[],
): Promise<string[]> {
  if (organizationIds.length === 0) return [];
  await tx.selectFrom('organizations').select('id').where('id', 'in', organizationIds).forUpdate().execute();
  const rows = await tx
    .selectFrom('organizations as o')
    .select('o.name')
    .where('o.id', 'in', organizationIds)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('brm_assignments as b')
            .innerJoin('accounts as a', 'a.id', 'b.account_id')
            .select('b.account_id')
            .whereRef('b.organization_id', '=', 'o.id')
            .where('b.account_id', '<>', accountId)
            .where('a.is_employee_brm', '=', true)
            .where('a.status', '=', 'active'),
        ),
      ),
    )
    .orderBy('o.name')
    .execute();
  return rows.map((r) => r.name);
}

export async function countActiveAdmins(tx: Tx, exceptId: string): Promise<number> {
  const row = await tx
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', 'employee')
    .where('is_admin', '=', true)
    .where('status', '=', 'active')
    .where('id', '<>', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A built-in-IdP password for an employee (standalone); the history keeps it from being reused. */
export async function setPasswordHash(tx: Tx, accountId: string, hash: string): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({ password_hash: hash, password_changed_at: new Date(), updated_at: new Date() })
    .where('id', '=', accountId)
    .execute();
  await tx.insertInto('password_history').values({ account_id: accountId, password_hash: hash }).execute();
}
