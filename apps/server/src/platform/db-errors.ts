/**
 * Which database errors mean "the database is not there right now" rather than "this request is
 * wrong". The HTTP error handler answers them 503; the start-up retries them.
 */

/** PostgreSQL's disk_full: a write found no space (the embedded database's disk is DATA_DIR's). */
const DISK_FULL = '53100';

/**
 * The server is unreachable, restarting or ended our connection (57P01-03, 08xxx), it is
 * overloaded (53300) or out of disk space (53100), or a statement hit its timeout or a lock wait
 * (57014, 55P03, 25P03).
 */
const unavailableCodes = new Set([
  DISK_FULL,
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  '55P03',
  '25P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** pg's words for a connection it has lost, or given up on (a query outlived the read timeout). */
const unusableConnectionText = /Connection terminated|not queryable|Query read timeout|Connection ended/i;

/**
 * pg-pool's words when every connection of the pool was busy for the whole connection wait
 * (DATABASE_CONNECTION_WAIT_MS): this instance is overloaded, the database may be fine. (A new
 * connection that cannot be opened in time says "Connection terminated due to connection
 * timeout" instead, an outage.)
 */
const poolWaitText = /timeout exceeded when trying to connect/i;

/** pg's own words for a lost or hung connection, or for no connection free in time (no codes). */
const lostConnectionText = new RegExp(`${unusableConnectionText.source}|${poolWaitText.source}`, 'i');

/** True when the request waited out the pool's connection wait: overload, not an outage. */
export function isPoolWaitTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof Error && poolWaitText.test(e.message)) return true;
  }
  return false;
}

/** True for an error (or its cause) that trying again shortly may cure. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableReason(error) !== null;
}

/**
 * Why the database is unavailable, in words safe to log (an error code, or pg's fixed phrase for
 * a lost connection; never a message that could carry data), or null when the error is not one of
 * those.
 */
export function unavailableReason(error: unknown): string | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && unavailableCodes.has(code)) return code;
    const lost = e instanceof Error ? lostConnectionText.exec(e.message) : null;
    if (lost) return lost[0];
    // Several addresses (IPv4 and IPv6 for localhost) failing at once.
    if (e instanceof AggregateError) {
      for (const inner of e.errors) {
        const reason = unavailableReason(inner);
        if (reason) return reason;
      }
    }
  }
  return null;
}

/** Codes after which a connection is gone: ended by the server (57P01-03) or lost (08xxx, sockets). */
const endedCodes = new Set(['57P01', '57P02', '57P03', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * True when the connection a query failed on must not serve another one. The server's FATAL error
 * (pg_terminate_backend, restart, idle-in-transaction timeout) arrives before the connection
 * closes: a client returned to the pool in between looks healthy and would fail the next request
 * too. A statement timeout or a lock refusal leaves the connection usable.
 */
export function endsConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { severity, code } = error as { severity?: unknown; code?: unknown };
  if (severity === 'FATAL' || severity === 'PANIC') return true;
  if (typeof code === 'string' && (endedCodes.has(code) || code.startsWith('08'))) return true;
  return unusableConnectionText.test(error.message);
}

/**
 * Text PostgreSQL cannot store: a NUL character (22021) or one the database encoding lacks
 * (22P05). Input schemas refuse NUL already; this keeps any field they miss a 400, not a 500.
 */
const invalidTextCodes = new Set(['22021', '22P05']);

export function isInvalidText(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && invalidTextCodes.has(code);
}

/**
 * Two transactions that PostgreSQL would not let both go on: a deadlock (40P01) or a serialization
 * failure (40001). The work takes its locks in one order (the account row before its grants); this
 * keeps one that a path still misses a 409 that asks to try again, not a 500.
 */
const conflictCodes = new Set(['40P01', '40001']);

export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && conflictCodes.has(code);
}

/** True when the database could not write for want of disk space. */
export function isDiskFull(error: unknown): boolean {
  return unavailableReason(error) === DISK_FULL;
}

/**
 * A unique violation (SQLSTATE 23505) of the index `constraint`: a concurrent duplicate that got
 * past a check made before the write. Both PostgreSQL and PGlite name the index in `constraint`;
 * the message text is for people and is not matched.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && e.constraint === constraint;
}
