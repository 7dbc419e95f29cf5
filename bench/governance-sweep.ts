// The governance sweep's budget (GOVERNANCE.md §2.2, issue 26): one sweep over 10,000 vendors and
// 20,000 grants with nothing due (goal at most 1 s), and with 1,000 grants whose end has come (goal
// at most 10 s: set-based, a transaction per batch of 500 with each grant's audit event and mail,
// row by row only when a batch fails; the BRMs' digest of what ended goes out in the same sweep,
// which runs at 10:00 in the hospital); and with 1,000 idle vendors to warn or disable (goal at
// most 10 s, as for the expiries). On PostgreSQL when
// TEST_DATABASE_URL is set, else on the embedded database. GOVERNANCE_BENCH_SCALE (default 1)
// shrinks the data for a quick try (0.05: 500 vendors, 1,000 grants, 50 expiries).
// Alone: `node --import tsx bench/governance-sweep.ts`.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { sweepNow } from '../apps/server/src/identity/governance/sweeper';
import { governanceBenchDatabase, seedVendorsAndGrants } from './support/governance-data';
import { printTable, type BenchRow } from './table';

const scale = Number(process.env.GOVERNANCE_BENCH_SCALE ?? '1');
const VENDORS = Math.round(10_000 * scale);
const EXPIRIES = Math.round(1_000 * scale);
const IDLE = Math.round(1_000 * scale);
const ORGS = 50;
const DAY = 86_400_000;

export async function benchGovernanceSweep(): Promise<BenchRow[]> {
  const { database, db, clock, deps, label } = await governanceBenchDatabase(
    new Date('2027-01-10T15:00:00Z'),
  );
  try {
    const at = clock.now();
    // The vendors signed in 10 days ago by the bench's clock: not dormant, so the inactivity step
    // has nothing to do either. Each organization's primary BRM sponsors its grants and reads the
    // daily digest. Two grants per vendor, ending 30 to 400 days from now: nothing due.
    const grants = await seedVendorsAndGrants(db, {
      organizations: ORGS,
      vendors: VENDORS,
      familyName: sql`'Endor'`,
      lastSignInAt: sql`${at}::timestamptz - interval '10 days'`,
      grantedAt: sql`${at}::timestamptz - interval '10 days'`,
      expiresAt: sql`${at}::timestamptz + make_interval(days => (30 + (a.n * 7 + k) % 370)::int)`,
    });

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

    // 1,000 active vendors idle (GOVERNANCE.md §6.3, standard tier: 90 days, warned 14 and 7 days
    // before): half last signed in 80 days ago (the 14-day warning is due), half 95 days ago (the
    // disable is due). The next day's sweep, so that the digest is not in the figure.
    clock.set(new Date(at.getTime() + DAY));
    await sweepNow(deps, 'bench'); // the day's digest (the disables of the expiries above)
    clock.set(new Date(clock.now().getTime() + 60_000));
    await sql`
      update accounts set last_sign_in_at = ${clock.now()}::timestamptz
          - make_interval(days => case when n % 2 = 0 then 80 else 95 end),
        created_at = ${clock.now()}::timestamptz - interval '100 days'
      from (select id, row_number() over (order by id desc) as n from accounts
            where type = 'vendor' and status = 'active' order by id desc limit ${IDLE}) idle
      where accounts.id = idle.id`.execute(db);
    started = performance.now();
    const idled = await sweepNow(deps, 'bench');
    const idleVendorsMs = performance.now() - started;
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
      {
        figure: `governance sweep, ${IDLE} idle vendors (half warned, half disabled), ${label}`,
        value: idleVendorsMs,
        unit: 'ms',
        ...(scale === 1 ? { goal: { atMost: 10_000 } } : {}),
        note: `the inactivity step with its audit events and mails; ${JSON.stringify(idled.steps['inactivity'])}`,
      },
    ];
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printTable(await benchGovernanceSweep());
