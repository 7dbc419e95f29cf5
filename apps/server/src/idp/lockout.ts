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

/** Adds one to a counter that remembers for a day after its last hit; returns the new count. */
async function bump(db: Db | Tx, key: string): Promise<number> {
  const result = await sql<{ hits: number }>`
    insert into rate_limits as r (key, hits, window_ends_at)
    values (${key}, 1, now() + interval '1 day')
    on conflict (key) do update set
      hits = case when r.window_ends_at <= now() then 1 else r.hits + 1 end,
      window_ends_at = now() + interval '1 day'
    returning hits`.execute(db);
  return Number(result.rows[0]?.hits ?? 1);
}

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
  const failures = await bump(db, key);
  if (failures < config.SIGNIN_MAX_FAILURES) return { lockedNow: false };
  const lockouts = await bump(db, `${key.replace('signin-lock:', 'signin-lockouts:')}`);
  const minutes = config.SIGNIN_LOCKOUT_MINUTES * 2 ** Math.min(lockouts - 1, MAX_DOUBLINGS);
  const until = sql<Date>`now() + ${`${minutes} minutes`}::interval`;
  await db
    .updateTable('rate_limits')
    .set({ hits: 0, locked_until: until, window_ends_at: sql<Date>`greatest(window_ends_at, ${until})` })
    .where('key', '=', key)
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
