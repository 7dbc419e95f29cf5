import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';

// The owner of `rate_limits`: the counters of identity/rate-limit.ts and the sign-in lockout of
// identity/lockout.ts, shared by every instance.

/** The upsert's conflict clause of a counted window (alias `r`): a new window once the last ended. */
function windowHit(window: string) {
  return sql`on conflict (key) do update set
    hits = case when r.window_ends_at <= now() then 1 else r.hits + 1 end,
    window_ends_at = case when r.window_ends_at <= now() then now() + ${window}::interval else r.window_ends_at end`;
}

/**
 * Counts one hit against `key` within a window of `windowSeconds`, in one atomic upsert; the
 * counter after it, and the seconds until its window ends (at least 1).
 */
export async function hit(
  db: Db | Tx,
  key: string,
  windowSeconds: number,
): Promise<{ hits: number; retry_after: number }> {
  const window = `${windowSeconds} seconds`;
  const row = await sql<{ hits: number; retry_after: number }>`
    insert into rate_limits as r (key, hits, window_ends_at)
    values (${key}, 1, now() + ${window}::interval)
    ${windowHit(window)}
    returning hits, greatest(1, ceil(extract(epoch from (window_ends_at - now()))))::int as retry_after`
    .execute(db)
    .then((result) => result.rows[0]);
  if (!row) throw new Error('rate limit upsert returned no row');
  return row;
}

/**
 * A sign-in attempt's two counts in one statement: one hit on `addressKey` (a plain window, like
 * `hit`), and, only when that leaves the address within `addressLimit`, one on `lockKey` unless it
 * is locked (then its count stays). `account` is null when the address was over its limit (its
 * counter was not touched).
 */
export async function hitAddressThenLock(
  db: Db,
  input: {
    addressKey: string;
    addressWindowSeconds: number;
    addressLimit: number;
    lockKey: string;
    lockWindowSeconds: number;
  },
): Promise<{ addressHits: number; account: { hits: number; locked: boolean } | null }> {
  const addressWindow = `${input.addressWindowSeconds} seconds`;
  const lockWindow = `${input.lockWindowSeconds} seconds`;
  // Data-modifying CTEs: `account` reads `address`'s RETURNING, so it runs only within the limit.
  const row = await sql<{ address_hits: number; hits: number | null; locked: boolean | null }>`
    with address as (
      insert into rate_limits as r (key, hits, window_ends_at)
      values (${input.addressKey}, 1, now() + ${addressWindow}::interval)
      ${windowHit(addressWindow)}
      returning hits
    ), account as (
      insert into rate_limits as r (key, hits, window_ends_at)
      select ${input.lockKey}, 1, now() + ${lockWindow}::interval from address
      where address.hits <= ${input.addressLimit}
      on conflict (key) do update set
        hits = case when r.locked_until > now() then r.hits
                    when r.window_ends_at <= now() then 1 else r.hits + 1 end,
        window_ends_at = case when r.locked_until > now() or r.window_ends_at > now() then r.window_ends_at
                              else now() + ${lockWindow}::interval end
      returning hits, coalesce(locked_until > now(), false) as locked
    )
    select address.hits as address_hits, account.hits, account.locked
    from address left join account on true`
    .execute(db)
    .then((result) => result.rows[0]);
  if (!row) throw new Error('sign-in attempt upsert returned no row');
  return {
    addressHits: row.address_hits,
    account: row.hits === null ? null : { hits: row.hits, locked: row.locked ?? false },
  };
}

/** Takes back one count from each key. */
export async function giveBack(db: Db | Tx, keys: string[]): Promise<void> {
  await sql`
    update rate_limits r set hits = greatest(r.hits - 1, 0)
    from (${lockedInKeyOrder(keys)}) l
    where r.key = l.key`.execute(db);
}

/**
 * The rows of `keys`, locked in the order of their keys, for a statement that changes more than
 * one: always in the order a sign-in attempt counts them (its address, `signin-address:...`, before
 * its account, `signin-lock:...`). Left to the plan, a scan meets rows in their physical order, which
 * every update changes: two give-backs of the same two keys each locked one and waited for the
 * other (PostgreSQL's deadlock detected, a sign-in answered 409, seen in CI under load).
 */
function lockedInKeyOrder(keys: string[]) {
  return sql`select key from rate_limits where key in (${sql.join(keys)}) order by key for update`;
}

/**
 * Seconds until `lockKey` is unlocked or `addressKey`, at `addressLimit` hits or more, has its
 * window end, whichever is later (at least 1).
 */
export async function secondsUntilFree(
  db: Db,
  input: { lockKey: string; addressKey: string; addressLimit: number },
): Promise<number> {
  const row = await sql<{ seconds: number }>`
    select greatest(1, max(ceil(extract(epoch from (
      case when key = ${input.lockKey} then locked_until else window_ends_at end) - now()))))::int as seconds
    from rate_limits
    where (key = ${input.lockKey} and locked_until > now())
       or (key = ${input.addressKey} and hits >= ${input.addressLimit}
           and window_ends_at > now())`
    .execute(db)
    .then((result) => result.rows[0]);
  return row?.seconds ?? 1;
}

/** Locks the key for `minutes` and restarts its count, keeping the row at least as long as the lock. */
export async function lock(tx: Tx, key: string, minutes: number): Promise<void> {
  const until = sql<Date>`now() + ${`${minutes} minutes`}::interval`;
  await tx
    .updateTable('rate_limits')
    .set({ hits: 0, locked_until: until, window_ends_at: sql<Date>`greatest(window_ends_at, ${until})` })
    .where('key', '=', key)
    .execute();
}

/** Moves the key's window end to now + `seconds`. */
export async function keepFor(tx: Tx, key: string, seconds: number): Promise<void> {
  await tx
    .updateTable('rate_limits')
    .set({ window_ends_at: sql<Date>`now() + ${`${seconds} seconds`}::interval` })
    .where('key', '=', key)
    .execute();
}

/** Deletes `clearKey` and takes back one count from `giveBackKey`, in one statement. */
export async function clearAndGiveBack(db: Db | Tx, clearKey: string, giveBackKey: string): Promise<void> {
  // Both rows are locked (in key order) before either changes: see lockedInKeyOrder.
  await sql`
    with locked as (${lockedInKeyOrder([clearKey, giveBackKey])}),
    cleared as (
      delete from rate_limits where key = ${clearKey} and key in (select key from locked) returning key
    )
    update rate_limits set hits = greatest(hits - 1, 0)
    where key = ${giveBackKey} and key in (select key from locked)`.execute(db);
}

/** Deletes counters whose window ended and that hold no lock; run by the housekeeping job. */
export async function prune(db: Db): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_ends_at', '<', sql<Date>`now()`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute();
}
