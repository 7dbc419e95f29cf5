import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db, Tx } from '../platform/db';
import { hitRateLimit } from '../identity/rate-limit';

/** No lockout lasts longer, however often it recurs: nobody can keep a known user out for hours. */
export const MAX_LOCKOUT_MINUTES = 15;
/** The per-address limit's window (SIGNIN_ADDRESS_MAX_FAILURES failures within it). */
const ADDRESS_WINDOW_SECONDS = 15 * 60;
/** Failures in a run, and lockouts for the doubling, are counted for a day. */
const DAY_SECONDS = 24 * 60 * 60;

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

function addressKey(clientAddress: string): string {
  return `signin-address:${clientAddress}`;
}

/** What a claimed attempt holds until it is settled: the counters it raised. */
export interface AttemptClaim {
  lockKey: string;
  addressKey: string;
  /** The account counter after this attempt: this attempt is the n-th failure should it fail. */
  accountHits: number;
}

/** Takes back one count (an attempt that succeeded, or was refused without being checked). */
async function giveBack(db: Db | Tx, keys: string[]): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ hits: sql<number>`greatest(hits - 1, 0)` })
    .where('key', 'in', keys)
    .execute();
}

/**
 * Counts one attempt on the account's counter unless it is locked; one atomic upsert, so
 * concurrent attempts each see their own count.
 */
async function hitAccount(db: Db, key: string): Promise<{ hits: number; locked: boolean }> {
  const window = `${DAY_SECONDS} seconds`;
  const row = await sql<{ hits: number; locked: boolean }>`
    insert into rate_limits as r (key, hits, window_ends_at)
    values (${key}, 1, now() + ${window}::interval)
    on conflict (key) do update set
      hits = case when r.locked_until > now() then r.hits
                  when r.window_ends_at <= now() then 1 else r.hits + 1 end,
      window_ends_at = case when r.locked_until > now() or r.window_ends_at > now() then r.window_ends_at
                            else now() + ${window}::interval end
    returning hits, coalesce(locked_until > now(), false) as locked`
    .execute(db)
    .then((result) => result.rows[0]);
  if (!row) throw new Error('lockout upsert returned no row');
  return row;
}

/**
 * Counts a sign-in attempt BEFORE its password or passcode is checked, against the client
 * address's limit and the account's (or unknown username's) run of failures. Null: refuse
 * without checking anything (the counts are given back). Because the count comes first, many
 * concurrent attempts still get at most the limit checked. Settle the claim with
 * `releaseAttempt` when the secret was right (`completeAttempt` when it was the last factor), or
 * `recordFailure` when it was wrong.
 */
export async function claimAttempt(
  db: Db,
  config: Config,
  /** The account's key, or its lookup still under way (it completes beside the address's count). */
  input: { lockKey: string | Promise<string>; clientAddress: string },
): Promise<AttemptClaim | null> {
  const address = addressKey(input.clientAddress);
  const [perAddress, key] = await Promise.all([
    hitRateLimit(db, address, {
      limit: config.SIGNIN_ADDRESS_MAX_FAILURES,
      windowSeconds: ADDRESS_WINDOW_SECONDS,
    }),
    input.lockKey,
  ]);
  if (!perAddress.allowed) {
    await giveBack(db, [address]);
    return null;
  }
  // The account's counter only after the address's allowed it: an address over its limit cannot
  // raise the count other addresses' attempts on this account see.
  const account = await hitAccount(db, key);
  if (account.locked) {
    await giveBack(db, [address]);
    return null;
  }
  if (account.hits > config.SIGNIN_MAX_FAILURES) {
    // Earlier attempts, still being checked, already hold every allowed failure.
    await giveBack(db, [address, key]);
    return null;
  }
  return { lockKey: key, addressKey: address, accountHits: account.hits };
}

/**
 * Seconds until an attempt `claimAttempt` refused may be made: the account's lock, or the
 * address's window when it is over its limit, whichever ends later (at least 1).
 */
export async function secondsUntilAttempt(
  db: Db,
  config: Config,
  input: { lockKey: string; clientAddress: string },
): Promise<number> {
  const row = await sql<{ seconds: number }>`
    select greatest(1, max(ceil(extract(epoch from (
      case when key = ${input.lockKey} then locked_until else window_ends_at end) - now()))))::int as seconds
    from rate_limits
    where (key = ${input.lockKey} and locked_until > now())
       or (key = ${addressKey(input.clientAddress)} and hits >= ${config.SIGNIN_ADDRESS_MAX_FAILURES}
           and window_ends_at > now())`
    .execute(db)
    .then((result) => result.rows[0]);
  return row?.seconds ?? 1;
}

/** The secret was right: the attempt was no failure. */
export async function releaseAttempt(db: Db | Tx, claim: AttemptClaim): Promise<void> {
  await giveBack(db, [claim.addressKey, claim.lockKey]);
}

/**
 * The secret was wrong (already counted by `claimAttempt`). The attempt that reached
 * SIGNIN_MAX_FAILURES locks the key for SIGNIN_LOCKOUT_MINUTES, doubled for each earlier lockout
 * within a day up to MAX_LOCKOUT_MINUTES, and restarts the count. Returns the lockout's length
 * when this failure started one.
 */
export async function recordFailure(
  tx: Tx,
  config: Config,
  claim: AttemptClaim,
): Promise<{ lockedMinutes: number | null }> {
  if (claim.accountHits < config.SIGNIN_MAX_FAILURES) return { lockedMinutes: null };
  const key = claim.lockKey;
  const lockoutsKey = key.replace('signin-lock:', 'signin-lockouts:');
  const lockouts = await hitRateLimit(tx, lockoutsKey, { limit: 1, windowSeconds: DAY_SECONDS });
  const doubled = config.SIGNIN_LOCKOUT_MINUTES * 2 ** Math.min(lockouts.hits - 1, 8);
  const minutes = Math.min(doubled, MAX_LOCKOUT_MINUTES);
  const until = sql<Date>`now() + ${`${minutes} minutes`}::interval`;
  // What a rate limit does not do: lock the key and restart its count, keeping the row at least
  // as long as the lock...
  await tx
    .updateTable('rate_limits')
    .set({ hits: 0, locked_until: until, window_ends_at: sql<Date>`greatest(window_ends_at, ${until})` })
    .where('key', '=', key)
    .execute();
  // ...and remember lockouts for a day after the latest one (not the first), so the doubling
  // does not start over while the failures go on.
  await tx
    .updateTable('rate_limits')
    .set({ window_ends_at: sql<Date>`now() + ${`${DAY_SECONDS} seconds`}::interval` })
    .where('key', '=', lockoutsKey)
    .execute();
  return { lockedMinutes: minutes };
}

/**
 * The last factor was right and the sign-in completes: the attempt was no failure (the address's
 * count is given back) and the account's run of consecutive failures ends, in one statement.
 */
export async function completeAttempt(db: Db | Tx, claim: AttemptClaim): Promise<void> {
  await db
    .with('cleared', (qb) => qb.deleteFrom('rate_limits').where('key', '=', claim.lockKey).returning('key'))
    .updateTable('rate_limits')
    .set({ hits: sql<number>`greatest(hits - 1, 0)` })
    .where('key', '=', claim.addressKey)
    .execute();
}

/**
 * Whether the account's owner should be told of a lockout now: at most once an hour, so a
 * lockout repeated all day does not flood their mailbox.
 */
export async function shouldMailLockout(tx: Tx, accountId: string): Promise<boolean> {
  const hourly = await hitRateLimit(tx, `signin-lockout-mail:${accountId}`, {
    limit: 1,
    windowSeconds: 3600,
  });
  return hourly.allowed;
}
