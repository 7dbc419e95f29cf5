import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  migrateToLatest,
  openDatabase,
  type DatabaseHandle,
  type DatabaseTimeouts,
  type DbKind,
} from '../../src/platform/db';
import { markEngineUsed } from './database-engines';

/**
 * The databases every integration test runs against: PGlite always, PostgreSQL whenever
 * TEST_DATABASE_URL names one (the global setup sets it when the local PostgreSQL answers).
 */
export const testDatabaseKinds: DbKind[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

/** A fresh, migrated database of the given kind; closing it drops it. */
export async function createTestDatabase(
  kind: DbKind,
  timeouts?: DatabaseTimeouts,
  onStatement?: (sql: string) => void,
): Promise<DatabaseHandle & { url?: string }> {
  markEngineUsed(kind);
  if (kind === 'pglite') {
    const handle = await openDatabase(onStatement ? { onStatement } : {});
    await migrateToLatest(handle.db);
    return handle;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `pra_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({
    url: url.toString(),
    poolSize: 5,
    ...(timeouts ? { timeouts } : {}),
    ...(onStatement ? { onStatement } : {}),
  });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
