import { setTimeout as sleep } from 'node:timers/promises';
import { migrateToLatest, openDatabase, type DatabaseHandle, type DatabaseOptions } from './db';
import { isDatabaseUnavailable } from './db-errors';

export interface StartupLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** host:port/database of a PostgreSQL URL: what the logs may show (never user or password). */
function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** First retry after this long, doubling up to the cap. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5_000;

/**
 * Opens the database and brings its schema up to date. PostgreSQL that is not there yet (an
 * orchestrator starting it with the portal, a failover in progress) is retried with backoff for
 * `waitSeconds`, each attempt logged; any other failure (a wrong password, a broken migration)
 * ends at once. Migrations run on a connection of their own without the statement timeout, which
 * is for requests and could cut a long migration short.
 */
export async function openMigratedDatabase(
  options: DatabaseOptions,
  waitSeconds: number,
  log: StartupLog,
): Promise<DatabaseHandle> {
  if (options.url) await migrateWhenReachable(options.url, waitSeconds, log);
  const database = await openDatabase(options);
  if (!options.url) {
    try {
      await migrateToLatest(database.db, log);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

async function migrateWhenReachable(url: string, waitSeconds: number, log: StartupLog): Promise<void> {
  const where = describeDatabaseUrl(url);
  const deadline = Date.now() + waitSeconds * 1000;
  for (let attempt = 1, delay = FIRST_RETRY_MS; ; attempt++, delay = Math.min(delay * 2, MAX_RETRY_MS)) {
    const migrator = await openDatabase({
      url,
      poolSize: 1,
      timeouts: { statementMs: 0, idleInTransactionMs: 0, connectionWaitMs: 5_000 },
    });
    try {
      await migrateToLatest(migrator.db, log);
      if (attempt > 1) log.info({ database: where, attempt }, 'database reachable; schema up to date');
      return;
    } catch (error) {
      const reason = errorText(error);
      if (!isDatabaseUnavailable(error)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `PostgreSQL at ${where} did not answer within ${waitSeconds} s (DATABASE_STARTUP_WAIT_SECONDS): ${reason}`,
        );
      }
      const wait = Math.min(delay, left);
      log.warn({ database: where, attempt, retryInMs: wait, reason }, 'database not reachable yet; retrying');
      await sleep(wait);
    } finally {
      await migrator.close().catch(() => {});
    }
  }
}

/** The innermost message of an error chain, e.g. "connect ECONNREFUSED 127.0.0.1:5433". */
function errorText(error: unknown): string {
  let e = error;
  while ((e as { cause?: unknown }).cause) e = (e as { cause?: unknown }).cause;
  if (e instanceof AggregateError && e.errors[0]) e = e.errors[0];
  return e instanceof Error ? e.message || (e as { code?: string }).code || e.name : String(e);
}
