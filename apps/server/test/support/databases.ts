import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import {
  migrateToLatest,
  openDatabase,
  PGLITE_OPTIONS,
  type DatabaseHandle,
  type DatabaseTimeouts,
  type DbKind,
} from '../../src/platform/db';
import type { Database } from '../../src/platform/db-schema';
import { PgliteDialect } from '../../src/platform/pglite-dialect';
import { markEngineUsed } from './database-engines';

/**
 * The databases every integration test runs against: PGlite always, PostgreSQL whenever
 * TEST_DATABASE_URL names one (the global setup sets it when the local PostgreSQL answers).
 * PRA_TEST_ENGINES=postgres (with TEST_DATABASE_URL) runs the PostgreSQL half alone: .ci/run's
 * second pass on the oldest Node.js line, whose PGlite half is the same WebAssembly the first pass
 * ran (README.md, "Tests").
 */
export const testDatabaseKinds: DbKind[] = process.env.TEST_DATABASE_URL
  ? process.env.PRA_TEST_ENGINES === 'postgres'
    ? ['postgres']
    : ['pglite', 'postgres']
  : ['pglite'];

/**
 * Templates, made once per run by the global setup (global-setup.ts): a migrated
 * PGlite data folder as a file (a new PGlite runs initdb, about 2 s of CPU; one loaded from the
 * copy about 0.4 s) and a migrated PostgreSQL database that CREATE DATABASE … TEMPLATE copies.
 * Without them (a worker started otherwise) each database is created and migrated from scratch.
 */
export const PGLITE_TEMPLATE_VARIABLE = 'PRA_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_VARIABLE = 'PRA_TEST_POSTGRES_TEMPLATE';

/** Writes a new, migrated PGlite's data folder to `file` (for PGLITE_TEMPLATE_VARIABLE). */
export async function writePgliteTemplate(file: string): Promise<void> {
  const pglite = await PGlite.create(PGLITE_OPTIONS);
  const db = new Kysely<Database>({ dialect: new PgliteDialect(pglite) });
  try {
    await migrateToLatest(db);
    const dump = await pglite.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
}

/** Creates the migrated PostgreSQL database `name` beside TEST_DATABASE_URL's (for POSTGRES_TEMPLATE_VARIABLE). */
export async function createPostgresTemplate(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `create database ${name}`);
  const handle = await openDatabase({ url: databaseUrl(adminUrl, name), poolSize: 1 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}

/** Creates the empty PostgreSQL database `name` beside TEST_DATABASE_URL's; returns its URL. */
export async function createEmptyPostgresDatabase(adminUrl: string, name: string): Promise<string> {
  await adminQuery(adminUrl, `create database ${name}`);
  return databaseUrl(adminUrl, name);
}

/**
 * Drops `name`, after giving its connections up to two seconds to leave. A pg pool's end()
 * resolves before its connections' sockets have closed; a forced drop meanwhile terminates them
 * (57P01), and a pool without an 'error' listener turns that into an uncaught exception, which
 * fails the whole run (seen in CI, in rate-limits.test.ts). Connections still there after the
 * wait (a test that leaves one open on purpose) are terminated by the drop.
 */
export async function dropPostgresDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, async (admin) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { rows } = await admin.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = $1 and backend_type = 'client backend'`,
        [name],
      );
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await admin.query(`drop database if exists ${name} with (force)`);
  });
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  await withAdmin(adminUrl, (admin) => admin.query(text));
}

async function withAdmin(adminUrl: string, work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh, migrated database of the given kind; closing it drops it. */
export async function createTestDatabase(
  kind: DbKind,
  timeouts?: DatabaseTimeouts,
  onStatement?: (sql: string) => void,
): Promise<DatabaseHandle & { url?: string }> {
  markEngineUsed(kind);
  if (kind === 'pglite') {
    const template = process.env[PGLITE_TEMPLATE_VARIABLE];
    const handle = await openDatabase({
      ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}),
      ...(onStatement ? { onStatement } : {}),
    });
    // A no-op on the template's copy (its migrations are this build's); the whole run without one.
    await migrateToLatest(handle.db);
    return handle;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `pra_test_${randomBytes(6).toString('hex')}`;
  const template = process.env[POSTGRES_TEMPLATE_VARIABLE];
  await adminQuery(
    adminUrl,
    template ? `create database ${name} template ${template}` : `create database ${name}`,
  );
  const url = databaseUrl(adminUrl, name);
  const handle = await openDatabase({
    url,
    poolSize: 5,
    ...(timeouts ? { timeouts } : {}),
    ...(onStatement ? { onStatement } : {}),
  });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      await dropPostgresDatabase(adminUrl, name);
    },
  };
}
