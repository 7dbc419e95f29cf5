import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { containsPattern } from './like';

// The owner of `organizations` and their `organization_domains`.

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

/** Every active organization. */
export async function activeOrganizations(db: Db | Tx) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('is_active', '=', true)
    .orderBy('name')
    .execute();
}

/** Organizations by exact name (active or not). */
export async function organizationsNamed(db: Db | Tx, names: string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('organizations')
    .select(['id', 'name', 'is_active'])
    .where('name', 'in', names)
    .execute();
}

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

/** An organization by id, its row locked for the rest of the transaction (concurrent admin changes). */
export async function findOrganizationForUpdate(tx: Tx, id: string) {
  return tx.selectFrom('organizations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function insertOrganization(tx: Tx, name: string): Promise<string> {
  const row = await tx.insertInto('organizations').values({ name }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateOrganization(
  tx: Tx,
  id: string,
  change: {
    name?: string;
    is_active?: boolean;
    risk_tier?: 'standard' | 'high';
    contract_ends_on?: string | null;
  },
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
/** The organizations whose name or one of whose domains contains `filter` (all when it is empty). */
function organizationsMatching(db: Db | Tx, filter: string) {
  const query = db.selectFrom('organizations as o');
  if (!filter) return query;
  const like = containsPattern(filter);
  return query.where((eb) =>
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

/** The matching organizations with their domains and BRMs, sorted by name. */
function organizationRows(db: Db | Tx, filter: string, direction: 'asc' | 'desc') {
  return organizationsMatching(db, filter)
    .select((eb) => [
      'o.id',
      'o.name',
      'o.is_active',
      'o.risk_tier',
      'o.contract_ends_on',
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
    .orderBy(sql`lower(o.name)`, direction)
    .orderBy('o.id');
}

type OrganizationRow = Awaited<ReturnType<ReturnType<typeof organizationRows>['execute']>>[number];
const withLists = (row: OrganizationRow) => ({ ...row, domains: row.domains ?? [], brms: row.brms ?? [] });

export async function listOrganizations(db: Db | Tx, filter?: string) {
  return (await organizationRows(db, filter?.trim() ?? '', 'asc').execute()).map(withLists);
}

/** Every organization (`total`) and those the filter matches (`matching`). */
export async function countOrganizations(db: Db | Tx, filter: string) {
  const count = async (text: string) =>
    (
      await organizationsMatching(db, text)
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const total = await count('');
  return { total, matching: filter ? await count(filter) : total };
}

/** One page of the organizations the filter matches, by name. */
export async function pageOrganizations(
  db: Db | Tx,
  page: { filter: string; direction: 'asc' | 'desc'; offset: number; limit: number },
) {
  const rows = await organizationRows(db, page.filter, page.direction)
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return rows.map(withLists);
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

/** Whether any organization exists (the demo data is seeded only into an empty portal). */
export async function anyOrganization(db: Db | Tx): Promise<boolean> {
  return (await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Serializes the demo seeding of instances starting at once, for the rest of the transaction. */
export async function lockDemoSeed(tx: Tx): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('pra:demo-seed'))`.execute(tx);
}

/** Gives a new organization its domains, in one statement. */
export async function insertDomains(
  tx: Tx,
  organizationId: string,
  domains: readonly string[],
): Promise<void> {
  await tx
    .insertInto('organization_domains')
    .values(domains.map((domain) => ({ organization_id: organizationId, domain })))
    .execute();
}
