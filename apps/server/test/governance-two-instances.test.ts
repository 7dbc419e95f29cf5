// The governance sweeper on two instances of one PostgreSQL (GOVERNANCE.md §2.2, issue 26): two
// app contexts, each with its own pool and owner, sweep the same database; the lease lets one
// sweep at a time and every grant ends once. Then PostgreSQL is killed in the middle of a sweep
// (a cluster of the test's own, stopped in immediate mode): after the restart and the lease's
// expiry the other instance finishes the work, and no mail went out twice and no grant is half
// ended (each ended grant has its history row, its audit event and its mail, or none of them).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { governanceSteps } from '../src/identity/governance/steps';
import { LEASE_MS, runSweep, type GovernanceStep, type SweepDeps } from '../src/identity/governance/sweep';
import { TestClock } from '../src/platform/clock';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db } from '../src/platform/db';
import { freePort } from './support/free-port';
import { canRunOwnPostgres, createOwnPostgres, type OwnPostgres } from './support/own-postgres';
import { testConfig } from './support/test-app';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.skipIf(!canRunOwnPostgres)('the governance sweep on two instances of one PostgreSQL', () => {
  let cluster: OwnPostgres;
  let a: DatabaseHandle;
  let b: DatabaseHandle;
  const clock = new TestClock(new Date('2027-06-01T14:00:00Z'));
  const config = testConfig();
  const deps = (db: Db): SweepDeps => ({ db, clock, config, log: silent });

  beforeAll(async () => {
    cluster = createOwnPostgres(await freePort());
    cluster.start();
    a = await openDatabase({ url: cluster.url(), poolSize: 3 });
    await migrateToLatest(a.db);
    b = await openDatabase({ url: cluster.url(), poolSize: 3 });
    await sql`insert into organizations (name) values ('Acme Imaging'), ('Beta Labs')`.execute(a.db);
    await sql`
      insert into accounts (username, email, type, status, given_name, family_name, is_employee_brm)
      values ('bea', 'bea@example.test', 'employee', 'active', 'Bea', 'Brm', true)`.execute(a.db);
    await sql`
      insert into brm_assignments (account_id, organization_id)
      select a.id, o.id from accounts a cross join organizations o where a.username = 'bea'`.execute(a.db);
  }, 90_000);

  afterAll(async () => {
    await a?.close().catch(() => undefined);
    await b?.close().catch(() => undefined);
    cluster?.stop();
    cluster?.remove();
  }, 30_000);

  /**
   * `n` vendors named `prefix1..n`, each with an Acme grant that ended yesterday; every other one
   * also holds a Beta grant for months yet (so half of them are disabled when the first ends).
   * They signed in yesterday by the test clock, so the inactivity step leaves them alone.
   */
  async function vendorsWithEndedGrants(prefix: string, n: number) {
    const at = clock.now();
    await sql`
      insert into accounts (username, email, type, status, given_name, family_name, last_sign_in_at)
      select ${prefix} || i, ${prefix} || i || '@example.test', 'vendor', 'active', 'V' || i, 'Endor',
             ${at}::timestamptz - interval '1 day'
      from generate_series(1, ${n}) i`.execute(a.db);
    await sql`
      insert into role_grants (account_id, organization_id, granted_at, expires_at, sponsor_id)
      select v.id, o.id, ${at}::timestamptz - interval '90 days', ${at}::timestamptz - interval '1 day', b.id
      from accounts v, organizations o, accounts b
      where v.username like ${`${prefix}%`} and o.name = 'Acme Imaging' and b.username = 'bea'`.execute(a.db);
    await sql`
      insert into role_grants (account_id, organization_id, granted_at, expires_at, sponsor_id)
      select v.id, o.id, ${at}::timestamptz - interval '90 days', ${at}::timestamptz + interval '120 days', b.id
      from accounts v, organizations o, accounts b
      where v.username like ${`${prefix}%`} and substring(v.username from ${prefix.length + 1}::int)::int % 2 = 0
        and o.name = 'Beta Labs' and b.username = 'bea'`.execute(a.db);
  }

  /** Per vendor of the batch: what the sweep left (counted in one statement). */
  async function outcome(prefix: string) {
    const { rows } = await sql<{
      username: string;
      status: string;
      disabled_reason: string | null;
      current: number;
      current_acme: number;
      history: number;
      expire_events: number;
      ended_mails: number;
      disable_events: number;
      disabled_mails: number;
      ending_mails: number;
    }>`
      with v as (select id, username, email, status, disabled_reason from accounts where username like ${`${prefix}%`}),
      g as (select g.account_id, count(*)::int as current,
                   count(*) filter (where o.name = 'Acme Imaging')::int as current_acme
            from role_grants g join organizations o on o.id = g.organization_id
            where g.account_id in (select id from v) group by g.account_id),
      h as (select account_id, count(*)::int as n from grant_history
            where end_reason = 'expired' and account_id in (select id from v) group by account_id),
      e as (select target_id,
                   count(*) filter (where action = 'grant.expire')::int as expire_events,
                   count(*) filter (where action = 'account.disable')::int as disable_events
            from audit_events where target_id in (select id from v) group by target_id),
      m as (select recipient,
                   count(*) filter (where template = 'access-ended')::int as ended_mails,
                   count(*) filter (where template = 'account-disabled-no-access')::int as disabled_mails,
                   count(*) filter (where template = 'access-ending')::int as ending_mails
            from outbox where recipient in (select email from v) group by recipient)
      select v.username, v.status, v.disabled_reason,
             coalesce(g.current, 0) as current, coalesce(g.current_acme, 0) as current_acme,
             coalesce(h.n, 0) as history,
             coalesce(e.expire_events, 0) as expire_events, coalesce(e.disable_events, 0) as disable_events,
             coalesce(m.ended_mails, 0) as ended_mails, coalesce(m.disabled_mails, 0) as disabled_mails,
             coalesce(m.ending_mails, 0) as ending_mails
      from v left join g on g.account_id = v.id left join h on h.account_id = v.id
      left join e on e.target_id = v.id left join m on m.recipient = v.email
      order by v.username`.execute(a.db);
    return rows;
  }

  /** Every vendor of the batch ended exactly once, all or nothing, and disabled iff no grant is left. */
  function expectEndedOnce(rows: Awaited<ReturnType<typeof outcome>>, n: number) {
    expect(rows).toHaveLength(n);
    for (const row of rows) {
      const holdsBeta = Number(row.username.replace(/\D+/, '')) % 2 === 0;
      expect(row, row.username).toMatchObject({
        current: holdsBeta ? 1 : 0,
        current_acme: 0,
        history: 1,
        expire_events: 1,
        ended_mails: 1,
        disable_events: holdsBeta ? 0 : 1,
        disabled_mails: holdsBeta ? 0 : 1,
        ending_mails: 0,
        status: holdsBeta ? 'active' : 'disabled',
        disabled_reason: holdsBeta ? null : 'noAccess',
      });
    }
  }

  const digestsOfBea = async () =>
    Number(
      (
        await sql<{ n: number }>`
          select count(*)::int as n from outbox where recipient = 'bea@example.test' and template = 'access-digest'`.execute(
          a.db,
        )
      ).rows[0]?.n,
    );

  it('lets one instance sweep at a time; every grant ends once', async () => {
    await vendorsWithEndedGrants('twin', 120);
    let inside = 0;
    let most = 0;
    const ran: string[] = [];
    // The real steps, watched: how many sweeps are inside a step at once, across both instances;
    // `during` runs while the first step is under way (the lease held).
    const watched = (owner: string, during?: () => Promise<void>): GovernanceStep[] =>
      governanceSteps.map((step, index) => ({
        ...step,
        run: async (sweep) => {
          inside += 1;
          most = Math.max(most, inside);
          try {
            if (index === 0) {
              ran.push(owner);
              await during?.();
            }
            return await step.run(sweep);
          } finally {
            inside -= 1;
          }
        },
      }));
    const instanceA = { name: 'A', db: a.db, owner: 'instance-a' };
    const instanceB = { name: 'B', db: b.db, owner: 'instance-b' };
    const instances = [instanceA, instanceB];
    // Each instance's pool has a connection ready, as in a running server.
    for (const i of instances) await sql`select 1`.execute(i.db);
    // While one sweeps, the other's turn comes: it skips. Then the other way round.
    const turns: [typeof instanceA, typeof instanceA][] = [
      [instanceA, instanceB],
      [instanceB, instanceA],
    ];
    for (const [first, second] of turns) {
      let secondRan: boolean | undefined;
      const result = await runSweep(
        deps(first.db),
        watched(first.name, async () => {
          secondRan = (await runSweep(deps(second.db), watched(second.name), second.owner)).ran;
        }),
        first.owner,
      );
      expect([result.ran, secondRan]).toEqual([true, false]);
      clock.advance('PT15M');
    }
    // Both timers fire at the same moment: never two inside at once.
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(instances.map((i) => runSweep(deps(i.db), watched(i.name), i.owner)));
      expect(results.filter((r) => r.ran).length).toBeGreaterThanOrEqual(1);
      clock.advance('PT15M');
    }
    expect(most).toBe(1);
    expect(ran.slice(0, 2)).toEqual(['A', 'B']);
    expectEndedOnce(await outcome('twin'), 120);
    // Bea's digest: once for the day, whichever instance sent it.
    expect(await digestsOfBea()).toBe(1);
  }, 60_000);

  it('killed mid-sweep: after the restart the other instance finishes; no duplicate mail, no half-ended grant', async () => {
    clock.advance('P1D');
    const n = 1500; // three batches of the sweep's 500
    await vendorsWithEndedGrants('crash', n);
    const digestsBefore = await digestsOfBea();
    const sweepA = runSweep(deps(a.db), governanceSteps, 'instance-a');
    sweepA.catch(() => undefined);
    // Kill PostgreSQL once A has ended some of the grants (a batch commits at once), and not all.
    for (;;) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from grant_history h join accounts v on v.id = h.account_id
        where v.username like 'crash%'`.execute(b.db);
      if ((rows[0]?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    cluster.kill();
    // A's sweep cannot finish: it fails or reports the rows it could not do.
    const result = await sweepA.then(
      (r) => r,
      (error: unknown) => error,
    );
    if (!(result instanceof Error)) {
      const steps = (result as Awaited<typeof sweepA>).steps;
      expect(JSON.stringify(steps)).toMatch(/"failed":[1-9]|"error"/);
    }
    cluster.start();
    // After crash recovery: some grants ended (each wholly), the rest untouched.
    const partial = await outcome('crash');
    const ended = partial.filter((r) => r.history === 1);
    expect(ended.length).toBeGreaterThan(0);
    expect(ended.length).toBeLessThan(n);
    for (const row of partial) {
      expect(row.expire_events, row.username).toBe(row.history);
      expect(row.ended_mails, row.username).toBe(row.history);
      expect(row.current_acme, row.username).toBe(1 - row.history);
    }
    // A's lease still holds (A may come back): B skips until it runs out, then takes over.
    expect((await runSweep(deps(b.db), governanceSteps, 'instance-b')).ran).toBe(false);
    clock.advance(LEASE_MS + 60_000);
    const finished = await runSweep(deps(b.db), governanceSteps, 'instance-b');
    expect(finished.ran).toBe(true);
    expect(finished.steps['end-expired-grants']).toEqual({ done: n - ended.length, failed: 0 });
    // A second sweep finds nothing more to do.
    clock.advance('PT15M');
    const again = await runSweep(deps(a.db), governanceSteps, 'instance-a');
    expect(again.steps['end-expired-grants']).toEqual({ done: 0, failed: 0 });
    expectEndedOnce(await outcome('crash'), n);
    // One digest for the new day (B sent it: A died before its last step).
    expect(await digestsOfBea()).toBe(digestsBefore + 1);
  }, 120_000);
});
