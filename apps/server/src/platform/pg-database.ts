// PostgreSQL through a pool: what the portal's requests, its long work and an export worker open
// (platform/export-workers.ts). Apart from db.ts (migrations, the embedded database, the config)
// so that an export worker loads this and kysely and pg, not the whole server: each export starts
// a thread that imports it.
import {
  Kysely,
  PostgresDialect,
  type KyselyConfig,
  type PostgresPool,
  type PostgresPoolClient,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { Database } from './db-schema';
import { endsConnection } from './db-errors';
import { runAfterCommits } from './after-commit';
import { databaseTimeoutDefaults } from './database-timeouts';
import { parseTimestamptz, TIMESTAMPTZ_OID } from './pg-timestamps';

// int8 (counts, TOTP steps) as numbers, as PGlite returns them; values stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));
// date (contract end dates) as 'YYYY-MM-DD', not a Date at the process's local midnight.
export const DATE_OID = 1082;
pg.types.setTypeParser(DATE_OID, (value) => value);
// timestamptz: the common form read directly (pg-timestamps.ts), the rest by pg's parser.
pg.types.setTypeParser(TIMESTAMPTZ_OID, parseTimestamptz);

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type DbKind = 'postgres' | 'pglite';

export interface DatabaseOptions {
  /** PostgreSQL URL; without it the embedded database is used. */
  url?: string | undefined;
  /** Folder of the embedded database; without it the embedded database lives in memory. */
  dataDir?: string | undefined;
  /** An in-memory embedded database starts as this copy of a data folder (PGlite's dumpDataDir). */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * PostgreSQL: connections opened when the database is opened and kept open while idle (at most
   * `poolSize`). The first burst of requests then finds connections whose PostgreSQL backends are
   * already started, instead of each opening one; idle connections above it close after 30 s.
   */
  keepOpen?: number;
  /** The sessions' application_name in pg_stat_activity (default `pra-portal`). */
  applicationName?: string;
  /** Limits that keep a hung or lost PostgreSQL from hanging requests (default: config.ts's). */
  timeouts?: Partial<DatabaseTimeouts>;
  /**
   * Told the text of each statement Kysely runs (not BEGIN and COMMIT): the tests that hold a
   * path to its number of statements count with it.
   */
  onStatement?: (sql: string) => void;
}

/** Kysely's log option for {@link DatabaseOptions.onStatement}. */
export function statementLog(options: DatabaseOptions): KyselyConfig['log'] {
  const { onStatement } = options;
  return onStatement
    ? (event) => {
        if (event.level === 'query') onStatement(event.query.sql);
      }
    : undefined;
}

export interface DatabaseTimeouts {
  /** PostgreSQL cancels a statement running (or waiting for a lock) longer than this; 0: never. */
  statementMs: number;
  /** PostgreSQL ends a session left idle inside a transaction longer than this; 0: never. */
  idleInTransactionMs: number;
  /** Longest wait for a pool connection (a free one, or a new one being opened). */
  connectionWaitMs: number;
}

/** What the pool tells about its load, for load shedding and the service check. */
export interface PoolStats {
  /** Open connections, in use or idle. */
  size: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

export interface DatabaseHandle {
  db: Db;
  kind: DbKind;
  /** Connections in use and callers waiting; null for the embedded database (no pool). */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

/** Statement text → name, for the few hot statements PostgreSQL keeps prepared per connection. */
const preparedNames = new Map<string, string>();

/**
 * Marks a hot statement (written once, run on nearly every request) to be prepared by name on each
 * PostgreSQL connection: its parse and, after PostgreSQL's first few runs, its plan are then reused
 * instead of redone per call (planning the session lookup cost several times its execution).
 * Returns the text unchanged; run it with `CompiledQuery.raw(text, parameters)`. The statement must
 * name its columns (no `*`): a prepared `*` fails once a migration adds a column to the table.
 * PGlite ignores the name.
 */
export function preparedStatement(name: string, text: string): string {
  preparedNames.set(text, name);
  return text;
}

/**
 * Lends pool clients to Kysely and takes them back, destroying any that can no longer be trusted
 * (`endsConnection`): one the server ended (its FATAL error arrives before the socket closes, so
 * pg-pool alone would take it back as idle and lend it to the next request), or one whose query
 * outlived the client-side read timeout (a frozen server or network; the query may still run, so
 * the connection must not be reused). Such a client is released with an error, which makes pg-pool
 * close it instead of returning it to the idle list.
 */
function guardedPool(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      let broken = false;
      return {
        // Kysely sends only (text, parameters) here: the portal streams no cursors.
        query: ((text: string, parameters: unknown[]) => {
          const name = preparedNames.get(text);
          const query = name
            ? client.query({ name, text, values: parameters })
            : client.query(text, parameters);
          return query.catch((error: unknown) => {
            if (endsConnection(error)) broken = true;
            throw error;
          });
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(broken),
      };
    },
    end: () => pool.end(),
  };
}

/**
 * Opens `count` connections side by side and gives them back to the pool, which keeps them (its
 * `min`). Best effort: a connection that fails to open is left to be opened on demand, and the
 * caller learns of an unreachable database from its first statement, as without this.
 */
async function openConnections(pool: pg.Pool, count: number): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  for (const result of opened) if (result.status === 'fulfilled') result.value.release();
}

export async function openPostgres(url: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  const limits = { ...databaseTimeoutDefaults, ...options.timeouts };
  const max = options.poolSize ?? 10;
  const keepOpen = Math.min(options.keepOpen ?? 0, max);
  const pool = new pg.Pool({
    connectionString: url,
    max,
    min: keepOpen,
    application_name: options.applicationName ?? 'pra-portal',
    connectionTimeoutMillis: limits.connectionWaitMs,
    idleTimeoutMillis: 30_000,
    // Sent at connect, so every session carries them (0 is PostgreSQL's "no limit").
    statement_timeout: limits.statementMs,
    idle_in_transaction_session_timeout: limits.idleInTransactionMs,
    // The server-side timeout cannot fire when the server itself is frozen: the client gives up a
    // second later (and guardedPool then drops the connection).
    query_timeout: limits.statementMs ? limits.statementMs + 1_000 : undefined,
    keepAlive: true,
  });
  // A connection PostgreSQL ends (restart, failover, pg_terminate_backend, idle-in-transaction
  // timeout) emits 'error' on its client. pg-pool listens only while the client is idle, and an
  // unheard 'error' event kills the process; so every client gets its own listener for its whole
  // life. The query in flight fails on its own (the request answers 503) and pg-pool discards the
  // client when it is released, so the next caller gets a fresh connection.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  pool.on('error', () => {});
  const db = runAfterCommits(
    new Kysely<Database>({
      dialect: new PostgresDialect({ pool: guardedPool(pool) }),
      log: statementLog(options),
    }),
  );
  await openConnections(pool, keepOpen);
  return {
    db,
    kind: 'postgres',
    poolStats: () => ({ size: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}
