import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '../../test/support/databases';
import { openDatabase, type DatabaseHandle } from './db';

/** Connections of `applicationName` PostgreSQL holds to the database at `url` now. */
async function backends(url: string, applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1',
      [applicationName],
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('the PostgreSQL pool kept open (DATABASE_POOL_MIN)', () => {
  let database: DatabaseHandle & { url?: string };
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => database?.close());

  it('has its connections open when opened, at most the pool size, and opens more for a burst', async () => {
    const url = database.url!;
    const kept = await openDatabase({ url, poolSize: 6, keepOpen: 4, applicationName: 'pra-keep-open' });
    const capped = await openDatabase({ url, poolSize: 2, keepOpen: 5, applicationName: 'pra-keep-capped' });
    const none = await openDatabase({ url, poolSize: 3, applicationName: 'pra-keep-none' });
    try {
      expect(kept.poolStats()).toEqual({ size: 4, idle: 4, waiting: 0 });
      expect(await backends(url, 'pra-keep-open')).toBe(4);
      expect(capped.poolStats()).toEqual({ size: 2, idle: 2, waiting: 0 });
      expect(none.poolStats()).toEqual({ size: 0, idle: 0, waiting: 0 });
      // They serve statements like any other, and a burst above them opens more, up to the size.
      await Promise.all(
        Array.from({ length: 6 }, () => kept.db.selectNoFrom((e) => e.lit(1).as('one')).execute()),
      );
      expect(kept.poolStats()!.size).toBeGreaterThanOrEqual(4);
      expect(kept.poolStats()!.size).toBeLessThanOrEqual(6);
    } finally {
      await Promise.all([kept.close(), capped.close(), none.close()]);
    }
  });
});

describe('the pool kept open, with PostgreSQL unreachable', () => {
  it('opens anyway (nothing kept) and leaves the outage to the first statement', async () => {
    const handle = await openDatabase({
      url: 'postgres://postgres@127.0.0.1:1/none',
      poolSize: 3,
      keepOpen: 3,
    });
    try {
      expect(handle.poolStats()).toEqual({ size: 0, idle: 0, waiting: 0 });
      await expect(handle.db.selectNoFrom((e) => e.lit(1).as('one')).execute()).rejects.toThrow();
    } finally {
      await handle.close();
    }
  });
});
