// The governance benches' shared setup (bench/governance-sweep.ts, bench/access-reviews.ts): a fresh
// migrated database (PostgreSQL when TEST_DATABASE_URL is set, else the embedded one) with a test
// clock and the sweep's dependencies, and the bulk data both measure over, built set-based in a few
// statements (generate_series), not row by row: organizations, vendors, one employee BRM per
// organization (its primary BRM, the sponsor of its grants) and two grants per vendor.
import { sql, type RawBuilder } from 'kysely';
import { createTestDatabase } from '../../apps/server/test/support/databases';
import { TestClock } from '../../apps/server/src/platform/clock';
import { loadConfig } from '../../apps/server/src/config';

/** The database, a test clock at `now` and the dependencies the sweep's steps take. */
export async function governanceBenchDatabase(now: Date) {
  const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  // Without the portal's statement timeout (1.5 s): on a loaded machine the seeding's bulk inserts
  // (the grants' with their provisioning trigger) take longer than a request may.
  const database = await createTestDatabase(kind, {
    statementMs: 0,
    idleInTransactionMs: 0,
    connectionWaitMs: 5_000,
  });
  const db = database.db;
  const clock = new TestClock(now);
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const deps = { db, clock, config: loadConfig({ LOG_LEVEL: 'silent' }), log: silent };
  const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  return { database, db, clock, deps, label };
}

type Db = Awaited<ReturnType<typeof governanceBenchDatabase>>['db'];

export interface VendorsAndGrants {
  organizations: number;
  vendors: number;
  /** The vendor's family name, over `i` (its number, 1-based). */
  familyName: RawBuilder<unknown>;
  /** When the vendor last signed in, over `i`. */
  lastSignInAt: RawBuilder<unknown>;
  /** Each grant's start and end, over `a.n` (the vendor's number) and `k` (0 or 1, its grant). */
  grantedAt: RawBuilder<unknown>;
  expiresAt: RawBuilder<unknown>;
}

/**
 * Organizations `Org 1`…, vendors `vendor1`… (`vendorN@acme.example`), BRMs `brm1`… (the n-th the
 * BRM of `Org n`), and two grants per vendor in two organizations ((n·2 + k) mod organizations),
 * each sponsored by its organization's BRM. Returns the number of grants.
 */
export async function seedVendorsAndGrants(db: Db, data: VendorsAndGrants): Promise<number> {
  await sql`insert into organizations (name) select 'Org ' || i from generate_series(1, ${data.organizations}) i`.execute(
    db,
  );
  await sql`
    insert into accounts (username, email, type, status, given_name, family_name, last_sign_in_at)
    select 'vendor' || i, 'vendor' || i || '@acme.example', 'vendor', 'active', 'V', ${data.familyName},
           ${data.lastSignInAt}
    from generate_series(1, ${data.vendors}) i`.execute(db);
  await sql`
    insert into accounts (username, email, type, status, given_name, family_name, is_employee_brm)
    select 'brm' || i, 'brm' || i || '@hospital.example', 'employee', 'active', 'B', 'Rm', true
    from generate_series(1, ${data.organizations}) i`.execute(db);
  await sql`
    insert into brm_assignments (account_id, organization_id)
    select b.id, o.id from accounts b join organizations o on o.name = 'Org ' || substring(b.username from 4)
    where b.username like 'brm%'`.execute(db);
  await sql`
    insert into role_grants (account_id, organization_id, granted_at, expires_at, sponsor_id)
    select a.id, o.id, ${data.grantedAt}, ${data.expiresAt}, o.brm
    from (select id, row_number() over (order by id) as n from accounts where type = 'vendor') a
    cross join generate_series(0, 1) k
    join (select o.id, b.account_id as brm, row_number() over (order by o.id) - 1 as m
          from organizations o join brm_assignments b on b.organization_id = o.id) o
      on o.m = (a.n * 2 + k) % ${data.organizations}`.execute(db);
  return countRows(db, 'role_grants');
}

/** How many rows `table` holds. */
export async function countRows(db: Db, table: string, where?: RawBuilder<unknown>): Promise<number> {
  const result = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} ${
    where ? sql`where ${where}` : sql``
  }`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
