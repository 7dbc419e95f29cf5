import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db, Tx } from '../platform/db';
import { hitRateLimit } from '../identity/rate-limit';

/** Doubling stops here so a lockout never outgrows a day or so. */
const MAX_DOUBLINGS = 6;
/** Failures with unknown usernames allowed per client address per window. */
const UNKNOWN_USER_LIMIT = { limit: 20, windowSeconds: 15 * 60 };

/**
 * The lockout counter's key. Unknown usernames get a counter too (keyed by a hash, since people
 * sometimes type a password into the username field), so a lockout reveals nothing about
 * whether an account exists.
 */
export function lockKey(account: { id: string } | null, username: string): string {
  if (account) return `signin-lock:${account.id}`;
  const digest = createHash('sha256').update(username.toLowerCase()).digest('base64url');
  return `signin-lock:unknown:${digest}`;
}

/** Whether the key is locked right now (shared by all instances through the database). */
export async function isLocked(db: Db | Tx, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('rate_limits')
    .select('key')
    .where('key', '=', key)
    .where('locked_until', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return Boolean(row);
}

/** Failures in a run, and lockouts for the doubling, are counted for a day. */
const DAY_SECONDS = 24 * 60 * 60;

/**
 * Counts one consecutive failure (password or passcode). At the limit the key is locked for
 * SIGNIN_LOCKOUT_MINUTES, doubled for each earlier lockout within a day, and the count restarts.
 * The atomic upsert means exactly one of several concurrent failures triggers the lockout.
 */
export async function recordFailure(
  db: Db | Tx,
  config: Config,
  key: string,
): Promise<{ lockedNow: boolean }> {
  const day = { limit: config.SIGNIN_MAX_FAILURES, windowSeconds: DAY_SECONDS };
  const failures = await hitRateLimit(db, key, day);
  if (failures.hits < config.SIGNIN_MAX_FAILURES) return { lockedNow: false };
  const lockoutsKey = key.replace('signin-lock:', 'signin-lockouts:');
  const lockouts = await hitRateLimit(db, lockoutsKey, day);
  const minutes = config.SIGNIN_LOCKOUT_MINUTES * 2 ** Math.min(lockouts.hits - 1, MAX_DOUBLINGS);
  const until = sql<Date>`now() + ${`${minutes} minutes`}::interval`;
  // What a rate limit does not do: lock the key and restart its count, keeping the row at least
  // as long as the lock...
  await db
    .updateTable('rate_limits')
    .set({ hits: 0, locked_until: until, window_ends_at: sql<Date>`greatest(window_ends_at, ${until})` })
    .where('key', '=', key)
    .execute();
  // ...and remember lockouts for a day after the latest one (not the first), so the doubling
  // does not start over while the failures go on.
  await db
    .updateTable('rate_limits')
    .set({ window_ends_at: sql<Date>`now() + ${`${DAY_SECONDS} seconds`}::interval` })
    .where('key', '=', lockoutsKey)
    .execute();
  return { lockedNow: true };
}

/** A completed sign-in ends the run of consecutive failures. */
export async function clearFailures(db: Db | Tx, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

function addressKey(clientAddress: string): string {
  return `signin-unknown-user:${clientAddress}`;
}

/** Whether this client address has used up its failures with unknown usernames. */
export async function isAddressLimited(db: Db | Tx, clientAddress: string): Promise<boolean> {
  const row = await db
    .selectFrom('rate_limits')
    .select('hits')
    .where('key', '=', addressKey(clientAddress))
    .where('window_ends_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return (row?.hits ?? 0) >= UNKNOWN_USER_LIMIT.limit;
}

export async function recordUnknownUserFailure(db: Db | Tx, clientAddress: string): Promise<void> {
  await hitRateLimit(db, addressKey(clientAddress), UNKNOWN_USER_LIMIT);
}
