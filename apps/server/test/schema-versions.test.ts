// Upgrades and rollbacks as an operator runs them: `admin migrate` applies this build's migrations,
// reporting each with its time, and exits; a build older than the database's schema refuses to
// start (and to migrate) with the one message that says what to do, on PostgreSQL and on the
// embedded database alike.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, migrations, openDatabase } from '../src/platform/db';
import {
  buildServer,
  freePort,
  runSql,
  scratchDatabase,
  serverDir,
  startServer,
  stopServer,
  type Instance,
} from './support/server-process';

// Each case starts several processes on a database of their own; on the embedded one the first runs
// PGlite's initdb (about 13 s of CPU on a loaded 2-core machine, 80 s of wall time at a load of
// 15). A case took 129 s on Node 22 beside the browser journeys: the limits leave room for that,
// and a process that hangs still fails.
const PROCESS_MS = 240_000;
const CASE_MS = 480_000;

const newer = `${String(buildSchema + 1).padStart(4, '0')}-from-a-newer-build`;
const tooNew = `database schema ${buildSchema + 1} is newer than this build's ${buildSchema}: upgrade, or restore the backup taken before the upgrade`;

function admin(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['dist/admin.js', ...args], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env },
    encoding: 'utf8',
    timeout: PROCESS_MS,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** `admin migrate` on a new database: one line per migration, then the schema; again: nothing to do. */
function migrateTwice(env: Record<string, string>): void {
  const first = admin(['migrate'], env);
  expect(first.err).toBe('');
  expect(first.code).toBe(0);
  const lines = first.out.trim().split('\n');
  expect(lines.map((line) => line.replace(/ in \d+ ms$/, ' in N ms'))).toEqual([
    ...Object.keys(migrations)
      .sort()
      .map((name) => `applied migration ${name} in N ms`),
    `Database schema ${buildSchema}: up to date.`,
  ]);
  const again = admin(['migrate'], env);
  expect(again.code).toBe(0);
  expect(again.out).toBe(`Database schema ${buildSchema}: up to date.\n`);
}

async function refusedStart(env: Record<string, string>): Promise<string> {
  const instance: Instance = startServer('older build', await freePort(), env);
  try {
    const code = await instance.exit;
    const output = instance.output.join('');
    expect(code, output).toBe(1);
    return output;
  } finally {
    await stopServer(instance);
  }
}

describe('upgrade and rollback', () => {
  let dir: string;
  beforeAll(() => {
    buildServer();
    dir = mkdtempSync(join(tmpdir(), 'pra-schema-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL: admin migrate reports each migration; an older build refuses a newer schema',
    async () => {
      const database = await scratchDatabase();
      try {
        const env = { PRA_MODE: 'production', DATABASE_URL: database.url };
        migrateTwice(env);
        await runSql(
          database.url,
          'insert into kysely_migration (name, timestamp) values ($1, now()::text)',
          [newer],
        );
        const output = await refusedStart({
          DATABASE_URL: database.url,
          DATA_DIR: join(dir, 'postgres'),
          DEMO_DATA: 'false',
        });
        expect(output).toContain(`PRA Portal failed to start: ${tooNew}\n`);
        const migrate = admin(['migrate'], env);
        expect(migrate.code).toBe(3);
        expect(migrate.err).toBe(`Cannot open the database: ${tooNew}\n`);
        // Nothing was changed: the newer build's record is still the newest.
        const { rows } = await runSql(database.url, 'select count(*)::int as n from kysely_migration');
        expect(rows[0]).toEqual({ n: Object.keys(migrations).length + 1 });
      } finally {
        await database.drop();
      }
    },
    CASE_MS,
  );

  it(
    'on the embedded database: the same',
    async () => {
      const dataDir = join(dir, 'embedded');
      migrateTwice({ DATA_DIR: dataDir });
      const embedded = await openDatabase({ dataDir: join(dataDir, 'db') });
      try {
        await sql`insert into kysely_migration (name, timestamp) values (${newer}, now()::text)`.execute(
          embedded.db,
        );
      } finally {
        await embedded.close();
      }
      const output = await refusedStart({ DATA_DIR: dataDir, DEMO_DATA: 'false' });
      expect(output).toContain(`PRA Portal failed to start: ${tooNew}\n`);
    },
    CASE_MS,
  );
});
