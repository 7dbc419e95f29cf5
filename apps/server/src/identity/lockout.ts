import { createHash } from 'node:crypto';
import type { Config } from '../config';
import type { Db, Tx } from '../platform/db';
import * as rateLimits from '../store/rate-limits';
import { hitRateLimit } from './rate-limit';

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
  /** The account's key, or its lookup still under way. */
  input: { lockKey: string | Promise<string>; clientAddress: string },
): Promise<AttemptClaim | null> {
  const address = addressKey(input.clientAddress);
  const key = await input.lockKey;
  // One statement: the address's count, then the account's only if the address allowed it (an
  // address over its limit cannot raise the count other addresses' attempts on this account
  // see); each an atomic upsert, so concurrent attempts each see their own count.
  const counted = await rateLimits.hitAddressThenLock(db, {
    addressKey: address,
    addressWindowSeconds: ADDRESS_WINDOW_SECONDS,
    addressLimit: config.SIGNIN_ADDRESS_MAX_FAILURES,
    lockKey: key,
    lockWindowSeconds: DAY_SECONDS,
  });
  const account = counted.account;
  if (!account || account.locked) {
    await rateLimits.giveBack(db, [address]);
    return null;
  }
  if (account.hits > config.SIGNIN_MAX_FAILURES) {
    // Earlier attempts, still being checked, already hold every allowed failure.
    await rateLimits.giveBack(db, [address, key]);
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
  return rateLimits.secondsUntilFree(db, {
    lockKey: input.lockKey,
    addressKey: addressKey(input.clientAddress),
    addressLimit: config.SIGNIN_ADDRESS_MAX_FAILURES,
  });
}

/** The secret was right: the attempt was no failure. */
export async function releaseAttempt(db: Db | Tx, claim: AttemptClaim): Promise<void> {
  await rateLimits.giveBack(db, [claim.addressKey, claim.lockKey]);
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
  // What a rate limit does not do: lock the key and restart its count, keeping the row at least
  // as long as the lock...
  await rateLimits.lock(tx, key, minutes);
  // ...and remember lockouts for a day after the latest one (not the first), so the doubling
  // does not start over while the failures go on.
  await rateLimits.keepFor(tx, lockoutsKey, DAY_SECONDS);
  return { lockedMinutes: minutes };
}

/**
 * The last factor was right and the sign-in completes: the attempt was no failure (the address's
 * count is given back) and the account's run of consecutive failures ends, in one statement.
 */
export async function completeAttempt(db: Db | Tx, claim: AttemptClaim): Promise<void> {
  await rateLimits.clearAndGiveBack(db, claim.lockKey, claim.addressKey);
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
