import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type Transaction } from 'kysely';
import pg from 'pg';
import * as initial from '../migrations/0001-initial';
import * as samlRequestBrowser from '../migrations/0002-saml-request-browser';
import * as outboxUndeliverable from '../migrations/0003-outbox-undeliverable';
import * as administration from '../migrations/0005-administration';
import type { Database } from './db-schema';
import { PgliteDialect } from './pglite-dialect';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type DbKind = 'postgres' | 'pglite';

/** Every migration, in order. Listed here (not read from disk) so the bundled server carries them. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-saml-request-browser': samlRequestBrowser,
  '0003-outbox-undeliverable': outboxUndeliverable,
  '0005-administration': administration,
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
  let unlock = () => {};
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  try {
    const pglite = await PGlite.create(options.dataDir);
    const db = new Kysely<Database>({ dialect: new PgliteDialect(pglite) });
    return {
      db,
      kind: 'pglite',
      async close() {
        await db.destroy();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database has one writer: a second process opening the same folder would corrupt
 * it. A pid file claims the folder; one left by a process that has died is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, 'portal.pid');
  const mine = String(process.pid);
  try {
    writeFileSync(file, mine, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileSync(file, 'utf8').trim());
    if (holder && holder !== process.pid && isRunning(holder)) {
      throw new Error(
        `Another PRA Portal process (pid ${holder}) is using the embedded database in ${dir}. Stop it, or set DATABASE_URL to share PostgreSQL.`,
      );
    }
    writeFileSync(file, mine);
  }
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === mine) unlinkSync(file);
    } catch {
      // Already gone: nothing to release.
    }
  };
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
