// A connection the server ends while a query runs on it (pg_terminate_backend, restart, failover)
// must cost that query alone: the next one, even in the same moment, gets a sound connection.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/databases';

describe.skipIf(!process.env.TEST_DATABASE_URL)('a connection ended under a query', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.close();
  });

  async function lockWaiter(): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
      );
      if (rows[0]) return rows[0].pid;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the query never waited on the lock');
  }

  it('is not lent again: the next query, issued at once, succeeds', async () => {
    for (let round = 0; round < 3; round++) {
      await admin.query('begin');
      await admin.query('lock table sessions in access exclusive mode');
      const blocked = sql`select count(*) from sessions`.execute(database.db).then(
        () => null,
        (error: unknown) => error,
      );
      await admin.query('select pg_terminate_backend($1)', [await lockWaiter()]);
      await admin.query('commit');
      expect(await blocked).toMatchObject({ code: '57P01' });
      // No I/O turn in between: the ended connection's socket has not been read to its close.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    }
  });
});
