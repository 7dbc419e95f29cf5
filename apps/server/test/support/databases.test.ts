import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase, dropPostgresDatabase } from './databases';

/**
 * The test databases' drop against PostgreSQL: a connection on its way out is let go, not
 * terminated (a terminated one raised 57P01 as an uncaught exception and failed a CI run), and a
 * connection that stays is still ended, so the drop never hangs.
 */
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('dropping a test database', () => {
  async function databaseWithClient() {
    const name = `pra_test_${randomBytes(6).toString('hex')}`;
    const url = await createEmptyPostgresDatabase(adminUrl!, name);
    const client = new pg.Client({ connectionString: url });
    const errors: string[] = [];
    client.on('error', (error: Error & { code?: string }) => errors.push(error.code ?? error.message));
    await client.connect();
    await client.query('select 1');
    return { name, client, errors };
  }

  it('waits for a connection that leaves within the wait, and gives it no error', async () => {
    const { name, client, errors } = await databaseWithClient();
    let dropped = false;
    const dropping = dropPostgresDatabase(adminUrl!, name).then(() => (dropped = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Still waiting while the connection is there (a drop that did not wait has ended it by now).
    expect(dropped).toBe(false);
    await client.end();
    await dropping;
    expect(errors).toEqual([]);
  });

  it('ends a connection that stays open, after the wait', async () => {
    const { name, client, errors } = await databaseWithClient();
    await dropPostgresDatabase(adminUrl!, name);
    await client.end().catch(() => undefined);
    // Terminated by the forced drop (then pg reports the closed socket too).
    expect(errors[0]).toBe('57P01');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    await admin.end();
    expect(rows).toEqual([]);
  });
});
