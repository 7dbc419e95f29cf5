import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, Migrator, sql, type Migration } from 'kysely';
import * as initial from '../migrations/0001-initial';
import * as samlRequestBrowser from '../migrations/0002-saml-request-browser';
import * as outboxUndeliverable from '../migrations/0003-outbox-undeliverable';
import * as auditDeniedOutcome from '../migrations/0004-audit-denied-outcome';
import * as signingKeys from '../migrations/0005-signing-keys';
import * as administration from '../migrations/0006-administration';
import * as pushAuthenticators from '../migrations/0007-push-authenticators';
import * as factorPush from '../migrations/0008-factor-push';
import * as serviceTokens from '../migrations/0009-service-tokens';
import * as governance from '../migrations/0010-governance';
import * as approvalRouting from '../migrations/0011-approval-routing';
import * as provisioning from '../migrations/0012-provisioning';
import * as listIndexes from '../migrations/0013-list-indexes';
import * as jobs from '../migrations/0014-jobs';
import * as idpMetadata from '../migrations/0015-idp-metadata';
import * as peopleIndexes from '../migrations/0020-people-indexes';
import * as accessReviews from '../migrations/0021-access-reviews';
import * as dormancyDeparture from '../migrations/0022-dormancy-departure';
import * as webauthn from '../migrations/0023-webauthn';
import * as passkeyGrace from '../migrations/0026-passkey-grace';
import * as aup from '../migrations/0027-aup';
import * as emergencyDepartures from '../migrations/0028-emergency-departures';
import * as activityReviews from '../migrations/0029-activity-reviews';
import * as liveVendorIndex from '../migrations/0030-live-vendor-index';
import * as statusDescIndex from '../migrations/0031-status-desc-index';
import * as vendorScopeVersion from '../migrations/0032-vendor-scope-version';
import type { Database } from './db-schema';
import { PgliteDialect } from './pglite-dialect';
import { runAfterCommits } from './after-commit';
import {
  DATE_OID,
  openPostgres,
  statementLog,
  type DatabaseHandle,
  type DatabaseOptions,
  type Db,
} from './pg-database';

export type {
  Db,
  Tx,
  DbKind,
  DatabaseOptions,
  DatabaseTimeouts,
  PoolStats,
  DatabaseHandle,
} from './pg-database';
export { preparedStatement } from './pg-database';

/** Every migration, in order. Listed here (not read from disk) so the bundled server carries them. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-saml-request-browser': samlRequestBrowser,
  '0003-outbox-undeliverable': outboxUndeliverable,
  '0004-audit-denied-outcome': auditDeniedOutcome,
  '0005-signing-keys': signingKeys,
  '0006-administration': administration,
  '0007-push-authenticators': pushAuthenticators,
  '0008-factor-push': factorPush,
  '0009-service-tokens': serviceTokens,
  '0010-governance': governance,
  '0011-approval-routing': approvalRouting,
  '0012-provisioning': provisioning,
  '0013-list-indexes': listIndexes,
  '0014-jobs': jobs,
  '0015-idp-metadata': idpMetadata,
  '0020-people-indexes': peopleIndexes,
  '0021-access-reviews': accessReviews,
  '0022-dormancy-departure': dormancyDeparture,
  '0023-webauthn': webauthn,
  '0026-passkey-grace': passkeyGrace,
  '0027-aup': aup,
  '0028-emergency-departures': emergencyDepartures,
  '0029-activity-reviews': activityReviews,
  '0030-live-vendor-index': liveVendorIndex,
  '0031-status-desc-index': statusDescIndex,
  '0032-vendor-scope-version': vendorScopeVersion,
};

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, options);
  let unlock = () => {};
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  try {
    const pglite = await openPglite(options.dataDir, options.loadDataDir);
    const db = runAfterCommits(
      new Kysely<Database>({ dialect: new PgliteDialect(pglite), log: statementLog(options) }),
    );
    return {
      db,
      kind: 'pglite',
      poolStats: () => null,
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

/**
 * The embedded database is PostgreSQL in the process, so its memory is ours: 16 MB of shared
 * buffers (PostgreSQL's default is 128 MB) hold a portal's working set many times over. pg_trgm
 * serves the lists' "contains" filters (migration 0013).
 */
export const PGLITE_OPTIONS = {
  postgresqlconf: ['shared_buffers = 16MB'],
  extensions: { pg_trgm },
  parsers: { [DATE_OID]: (value: string) => value },
};

/**
 * Opens PGlite. A new data folder is created by initdb, whose memory stays mapped for the life of
 * that instance (about 400 MB more): so a new database is closed once and opened again.
 */
async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<PGlite> {
  if (!dataDir && loadDataDir) return PGlite.create({ ...PGLITE_OPTIONS, loadDataDir });
  if (!dataDir || existsSync(join(dataDir, 'PG_VERSION'))) return PGlite.create(dataDir, PGLITE_OPTIONS);
  await (await PGlite.create(dataDir, PGLITE_OPTIONS)).close();
  return PGlite.create(dataDir, PGLITE_OPTIONS);
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

/** A migration's schema number: the digits its name starts with (0008-factor-push: 8). */
function schemaNumber(name: string): number {
  return Number.parseInt(name, 10) || 0;
}

/** The schema this build brings a database to: its highest migration's number. */
export const buildSchema = Math.max(...Object.keys(migrations).map(schemaNumber));

/** The names of the migrations the database has run; null when it has never been migrated. */
async function appliedMigrations(db: Db): Promise<string[] | null> {
  const { rows: table } = await sql<{ found: boolean }>`
    select to_regclass('kysely_migration') is not null as found`.execute(db);
  if (!table[0]?.found) return null;
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return rows.map((row) => row.name);
}

/**
 * A newer build has migrated this database: this build does not know its tables, and rolling
 * back means restoring the backup taken before the upgrade, never running the old code on it.
 */
export class SchemaTooNewError extends Error {}

function refuseNewerSchema(applied: string[]): void {
  const schema = Math.max(0, ...applied.map(schemaNumber));
  if (schema > buildSchema) {
    throw new SchemaTooNewError(
      `database schema ${schema} is newer than this build's ${buildSchema}: upgrade, or restore the backup taken before the upgrade`,
    );
  }
}

/**
 * True when the database has run exactly this build's migrations: two reads, no lock. Kysely's
 * migrator takes its lock and reads its tables in several statements, a third of a warm start
 * on the embedded database, so an up-to-date schema skips it.
 */
export async function schemaIsCurrent(db: Db): Promise<boolean> {
  const applied = (await appliedMigrations(db))?.sort();
  if (!applied) return false;
  const known = Object.keys(migrations).sort();
  return applied.length === known.length && known.every((name, i) => applied[i] === name);
}

/** Where migrations are reported: each applied one, with the time it took. */
export interface MigrationLog {
  info(fields: object, message: string): void;
}

/** One migration run: its name and how long it took. */
export interface AppliedMigration {
  name: string;
  ms: number;
}

/**
 * Brings the schema up to date; safe to run on every start and from several instances. Each
 * migration applied is logged with its time; a database a newer build migrated is refused
 * (SchemaTooNewError) before anything is changed. Returns the migrations this call applied.
 */
export async function migrateToLatest(db: Db, log?: MigrationLog): Promise<AppliedMigration[]> {
  const applied = await appliedMigrations(db);
  if (applied) refuseNewerSchema(applied);
  if (await schemaIsCurrent(db)) return [];
  const took = new Map<string, number>();
  const timed = Object.fromEntries(
    Object.entries(migrations).map(([name, migration]) => [
      name,
      {
        ...migration,
        async up(migrationDb: Kysely<unknown>) {
          const started = performance.now();
          await migration.up(migrationDb);
          took.set(name, Math.round(performance.now() - started));
        },
      } satisfies Migration,
    ]),
  );
  const migrator = new Migrator({ db, provider: { getMigrations: async () => timed } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    // Another instance of a newer build may have migrated between the check and the lock.
    const now = await appliedMigrations(db).catch(() => null);
    if (now) refuseNewerSchema(now);
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, {
      cause: error,
    });
  }
  const done = (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => ({ name: result.migrationName, ms: took.get(result.migrationName) ?? 0 }));
  for (const { name, ms } of done) {
    log?.info({ migration: name, ms }, `applied migration ${name} in ${ms} ms`);
  }
  return done;
}

/** Names of the migrations this build carries that the database has not run yet. */
export async function migrationsPending(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const known = await migrator.getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((m) => m.name);
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
