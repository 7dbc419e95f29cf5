// The governance sweep's budget (GOVERNANCE.md §2.2, issue 26): one sweep over 10,000 vendors and
// 20,000 grants with nothing due (goal at most 1 s), and with 1,000 grants whose end has come (goal
// at most 10 s: set-based, a transaction per batch of 500 with each grant's audit event and mail,
// row by row only when a batch fails; the BRMs' digest of what ended goes out in the same sweep,
// which runs at 10:00 in the hospital). On PostgreSQL when
// TEST_DATABASE_URL is set, else on the embedded database. GOVERNANCE_BENCH_SCALE (default 1)
// shrinks the data for a quick try (0.05: 500 vendors, 1,000 grants, 50 expiries).
// Alone: `node --import tsx bench/governance-sweep.ts`.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createTestDatabase } from '../apps/server/test/support/databases';
import { TestClock } from '../apps/server/src/platform/clock';
import { sweepNow } from '../apps/server/src/identity/governance/sweeper';
import { loadConfig } from '../apps/server/src/config';
import { printTable, type BenchRow } from './table';

const scale = Number(process.env.GOVERNANCE_BENCH_SCALE ?? '1');
const VENDORS = Math.round(10_000 * scale);
const EXPIRIES = Math.round(1_000 * scale);
const ORGS = 50;
const DAY = 86_400_000;

export async function benchGovernanceSweep(): Promise<BenchRow[]> {
  const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const database = await createTestDatabase(kind);
  const db = database.db;
  const clock = new TestClock(new Date('2027-01-10T15:00:00Z'));
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const deps = { db, clock, config: loadConfig({ LOG_LEVEL: 'silent' }), log: silent };
  try {
    const at = clock.now();
    // Bulk data in a few statements (generate_series), not row by row. The vendors signed in 10
    // days ago by the bench's clock: not dormant, so the inactivity step has nothing to do either.
    await sql`insert into organizations (name) select 'Org ' || i from generate_series(1, ${ORGS}) i`.execute(
      db,
    );
    await sql`
      insert into accounts (username, email, type, status, given_name, family_name, last_sign_in_at)
      select 'vendor' || i, 'vendor' || i || '@acme.example', 'vendor', 'active', 'V', 'Endor',
             ${at}::timestamptz - interval '10 days'
      from generate_series(1, ${VENDORS}) i`.execute(db);
    // A primary BRM per organization: the sponsor of its grants and a reader of the daily digest.
    await sql`
      insert into accounts (username, email, type, status, given_name, family_name, is_employee_brm)
      select 'brm' || i, 'brm' || i || '@hospital.example', 'employee', 'active', 'B', 'Rm', true
      from generate_series(1, ${ORGS}) i`.execute(db);
    await sql`
      insert into brm_assignments (account_id, organization_id)
      select b.id, o.id from accounts b join organizations o on o.name = 'Org ' || substring(b.username from 4)
      where b.username like 'brm%'`.execute(db);
    // Two grants per vendor, ending 30 to 400 days from now: nothing due.
    await sql`
      insert into role_grants (account_id, organization_id, granted_at, expires_at, sponsor_id)
      select a.id, o.id, ${at}::timestamptz - interval '10 days',
             ${at}::timestamptz + make_interval(days => (30 + (a.n * 7 + k) % 370)::int), o.brm
      from (select id, row_number() over (order by id) as n from accounts where type = 'vendor') a
      cross join generate_series(0, 1) k
      join (select o.id, b.account_id as brm, row_number() over (order by o.id) - 1 as m
            from organizations o join brm_assignments b on b.organization_id = o.id) o
        on o.m = (a.n * 2 + k) % ${ORGS}`.execute(db);
    const grants = Number(
      (await sql<{ n: number }>`select count(*)::int as n from role_grants`.execute(db)).rows[0]?.n ?? 0,
    );

    let started = performance.now();
    await sweepNow(deps, 'bench');
    const idleMs = performance.now() - started;

    // 1,000 grants whose end has come (one per vendor: half of those vendors lose their last one
    // only when both ended, so some accounts are disabled too).
    await sql`
      update role_grants set expires_at = ${new Date(at.getTime() - DAY)}
      where (account_id, organization_id) in (
        select account_id, organization_id from role_grants order by account_id, organization_id limit ${EXPIRIES})`.execute(
      db,
    );
    started = performance.now();
    const result = await sweepNow(deps, 'bench');
    const dueMs = performance.now() - started;
    const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
    return [
      {
        figure: `governance sweep, nothing due, ${VENDORS} vendors / ${grants} grants, ${label}`,
        value: idleMs,
        unit: 'ms',
        ...(scale === 1 ? { goal: { atMost: 1_000 } } : {}),
        note: `every step, one sweep; ${ORGS} BRMs, each its organization's sponsor`,
      },
      {
        figure: `governance sweep, ${EXPIRIES} expiries due, ${label}`,
        value: dueMs,
        unit: 'ms',
        ...(scale === 1 ? { goal: { atMost: 10_000 } } : {}),
        note: `a transaction per batch of 500 ended grants with their audit events and mails; ended ${JSON.stringify(result.steps['end-expired-grants'])}, digests ${JSON.stringify(result.steps['brm-digest'])}`,
      },
    ];
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printTable(await benchGovernanceSweep());
