// Access reviews' budget (GOVERNANCE.md §4, issue 27): opening a review cycle over 20,000 grants
// (one campaign per organization: the snapshot, the preview kept at start, R1 and R4 mails) and
// closing it with 5,000 items left to the default (Remove; 15,000 decided Keep), each at most 10 s;
// and the BRM's Access Reviews page over a campaign of 2,000 items answering its first page (the
// undecided count, the campaigns, 10 items) at most 50 ms (median of 20 after a warm-up). On
// PostgreSQL when TEST_DATABASE_URL is set, else on the embedded database. REVIEW_BENCH_SCALE
// (default 1) shrinks the data for a quick try. Alone: `node --import tsx bench/access-reviews.ts`.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import {
  brmReviews,
  closeCampaigns,
  reviewSweep,
  startCycle,
} from '../apps/server/src/identity/governance/reviews';
import { countRows, governanceBenchDatabase, seedVendorsAndGrants } from './support/governance-data';
import { printTable, type BenchRow } from './table';

const scale = Number(process.env.REVIEW_BENCH_SCALE ?? '1');
const VENDORS = Math.round(10_000 * scale);
const DEFAULTS = Math.round(5_000 * scale);
const BIG = Math.round(2_000 * scale);
const ORGS = 50;

export async function benchAccessReviews(): Promise<BenchRow[]> {
  const { database, db, clock, deps, label } = await governanceBenchDatabase(
    new Date('2027-01-10T15:00:00Z'),
  );
  try {
    const at = clock.now();
    // Two grants per vendor in two organizations: 20,000 grants.
    const grants = await seedVendorsAndGrants(db, {
      organizations: ORGS,
      vendors: VENDORS,
      familyName: sql`'Endor' || i`,
      lastSignInAt: sql`${at}::timestamptz - make_interval(days => (i % 120)::int)`,
      grantedAt: sql`${at}::timestamptz - interval '100 days'`,
      expiresAt: sql`${at}::timestamptz + interval '300 days'`,
    });
    const actor = { id: null, username: 'bench' };

    let started = performance.now();
    const { cycleId } = await startCycle(await reviewSweep(deps), actor, {
      name: 'Bench review',
      defaultAction: 'remove',
      vendorConfirmation: true,
    });
    const openMs = performance.now() - started;
    const items = await countRows(db, 'review_items');
    // All but DEFAULTS items decided Keep; the rest go to the default (Remove).
    await sql`
      update review_items set status = 'kept', decision = 'keep', decided_at = ${at}::timestamptz
      where id in (select id from review_items order by id offset ${DEFAULTS})`.execute(db);
    const due = (
      await db
        .selectFrom('review_cycles')
        .select('due_at')
        .where('id', '=', cycleId!)
        .executeTakeFirstOrThrow()
    ).due_at;
    clock.set(new Date(new Date(due).getTime() + 1_000));
    // The close alone (the sweep's review-close step): a whole sweep also runs the other steps,
    // whose cost (the inactivity step over these 10,000 vendors) is not the review's.
    const closing = await reviewSweep(deps);
    started = performance.now();
    const result = await closeCampaigns.run(closing);
    const closeMs = performance.now() - started;
    const removed = await countRows(db, 'grant_history', sql`end_reason = 'defaultRemoved'`);

    // The BRM's page over one campaign of 2,000 items.
    clock.set(at);
    await sql`insert into organizations (name) values ('Big Org')`.execute(db);
    await sql`
      insert into brm_assignments (account_id, organization_id)
      select a.id, o.id from accounts a, organizations o where a.username = 'brm1' and o.name = 'Big Org'`.execute(
      db,
    );
    await sql`
      insert into role_grants (account_id, organization_id, granted_at, expires_at)
      select a.id, o.id, ${at}::timestamptz - interval '10 days', ${at}::timestamptz + interval '200 days'
      from (select id from accounts where type = 'vendor' order by id limit ${BIG}) a, organizations o
      where o.name = 'Big Org'`.execute(db);
    const bigOrg = (
      await db
        .selectFrom('organizations')
        .select('id')
        .where('name', '=', 'Big Org')
        .executeTakeFirstOrThrow()
    ).id;
    await startCycle(await reviewSweep(deps), actor, {
      name: 'Big review',
      organizationIds: [bigOrg],
      defaultAction: 'remove',
      vendorConfirmation: false,
    });
    const brm = await db
      .selectFrom('accounts')
      .selectAll()
      .where('username', '=', 'brm1')
      .executeTakeFirstOrThrow();
    const times: number[] = [];
    let shown = 0;
    for (let i = 0; i < 25; i += 1) {
      started = performance.now();
      const page = await brmReviews(await reviewSweep(deps), brm, { page: 1, pageSize: 10 });
      if (i >= 5) times.push(performance.now() - started);
      shown = page.totalItems;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    return [
      {
        figure: `access review cycle opened over ${grants} grants (${ORGS} campaigns), ${label}`,
        value: openMs,
        unit: 'ms',
        ...(scale === 1 ? { goal: { atMost: 10_000 } } : {}),
        note: `${items} items snapshotted, previews kept, R1 and R4 mails queued`,
      },
      {
        figure: `access review closed with ${DEFAULTS} defaults (Remove) and ${items - DEFAULTS} Keeps, ${label}`,
        value: closeMs,
        unit: 'ms',
        ...(scale === 1 ? { goal: { atMost: 10_000 } } : {}),
        note: `the review-close step alone; batches of 500 items set-based; ${removed} grants ended by default; ${JSON.stringify(result)}`,
      },
      {
        figure: `BRM Access Reviews first page, campaign of ${shown} items, ${label}`,
        value: median,
        unit: 'ms',
        ...(scale === 1 ? { goal: { atMost: 50 } } : {}),
        note: `median of 20 after 5 warm-up calls (count, campaigns and 10 items; the function, without HTTP); p max ${times.at(-1)!.toFixed(1)} ms`,
      },
    ];
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printTable(await benchAccessReviews());
