import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type Transaction } from 'kysely';
import pg from 'pg';
import * as initial from '../migrations/0001-initial';
import type { Database } from './db-schema';
import { PgliteDialect } from './pglite-dialect';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type DbKind = 'postgres' | 'pglite';

/** Every migration, in order. Listed here (not read from disk) so the bundled server carries them. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
};

// int8 (counts, TOTP steps) as numbers, as PGlite returns them; values stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DatabaseOptions {
  /** PostgreSQL URL; without it the embedded database is used. */
  url?: string | undefined;
  /** Folder of the embedded database; without it the embedded database lives in memory. */
  dataDir?: string | undefined;
  poolSize?: number;
}

export interface DatabaseHandle {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create(options.dataDir);
  const db = new Kysely<Database>({ dialect: new PgliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}

/** Brings the schema up to date; safe to run on every start and from several instances. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, {
      cause: error,
    });
  }
}

/** True when the database answers a trivial query within the timeout. */
export async function isDatabaseUp(db: Db, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sql`select 1`.execute(db),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
