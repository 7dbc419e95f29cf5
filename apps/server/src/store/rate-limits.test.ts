import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db-schema';
import type { Db } from '../platform/db';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { clearAndGiveBack, giveBack } from './rate-limits';

const address = 'signin-address:192.0.2.7';
const lock = 'signin-lock:00000000-0000-4000-8000-000000000001';

/**
 * The order in which a statement changing two counters locks their rows. PostgreSQL only: row
 * locks between connections. The statements under test run on connections that scan tables in
 * their physical order (index scans off), as the planner does on a small table: the order that
 * every update changes, so left to the plan two statements can meet the same rows in opposite
 * orders (a deadlock seen in CI between two give-backs of one sign-in's counters).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('rate limit rows locked in key order', () => {
  let t: TestApp;
  let scanning: pg.Pool;
  let db: Db;
  let holder: pg.PoolClient;
  let prober: pg.Pool;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    const connectionString = t.databaseUrl!;
    scanning = new pg.Pool({
      connectionString,
      options: '-c enable_indexscan=off -c enable_bitmapscan=off -c enable_indexonlyscan=off',
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: scanning }) });
    prober = new pg.Pool({ connectionString, options: '-c lock_timeout=200' });
  });
  afterAll(async () => {
    await db?.destroy();
    await prober?.end();
    await t?.close();
  });

  beforeEach(async () => {
    await prober.query('delete from rate_limits');
    const row = `(key, hits, window_ends_at) values ($1, 3, now() + interval '1 hour')`;
    // The account's row first, then the address's: a scan meets them in that order.
    await prober.query(`insert into rate_limits ${row}`, [lock]);
    await prober.query(`insert into rate_limits ${row}`, [address]);
    // Moved behind the account's row once more (an update writes a new version at the end),
    // as a sign-in's counting does.
    await prober.query(`update rate_limits set hits = hits where key = $1`, [address]);
  });

  /**
   * Runs `statement` while another transaction holds the address's row, and reports whether the
   * account's row was free meanwhile: a statement that locks the address first waits there
   * holding nothing; one that went by the scan took the account's row and then waited.
   */
  async function accountRowFreeWhileAddressHeld(statement: () => Promise<unknown>) {
    holder = await prober.connect();
    await holder.query('begin');
    await holder.query('select key from rate_limits where key = $1 for update', [address]);
    const running = statement();
    try {
      // The statement reaches the held row (it waits there) before the probe.
      for (let i = 0; i < 100; i++) {
        const { rows } = await prober.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%rate_limits%'`,
        );
        if (rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return await prober.query('select key from rate_limits where key = $1 for update nowait', [lock]).then(
        () => true,
        () => false,
      );
    } finally {
      await holder.query('commit');
      holder.release();
      await running;
    }
  }

  it('a give-back of both counters locks the address before the account, and still takes one from each', async () => {
    expect(await accountRowFreeWhileAddressHeld(() => giveBack(db, [address, lock]))).toBe(true);
    const { rows } = await prober.query<{ key: string; hits: number }>(
      'select key, hits from rate_limits order by key',
    );
    expect(rows).toEqual([
      { key: address, hits: 2 },
      { key: lock, hits: 2 },
    ]);
  });

  it('a completed sign-in clears the account and gives back the address in the same order', async () => {
    expect(await accountRowFreeWhileAddressHeld(() => clearAndGiveBack(db, lock, address))).toBe(true);
    const { rows } = await prober.query<{ key: string; hits: number }>(
      'select key, hits from rate_limits order by key',
    );
    expect(rows).toEqual([{ key: address, hits: 2 }]);
  });

  it('twenty give-backs of the same two counters at once all finish, without a deadlock', async () => {
    await prober.query(`update rate_limits set hits = 40`);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => giveBack(db, [address, lock])));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const { rows } = await prober.query<{ hits: number }>('select hits from rate_limits order by key');
    expect(rows.map((r) => r.hits)).toEqual([20, 20]);
  });
});
