import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';

// The owner of `rate_limits`: the counters of identity/rate-limit.ts and the sign-in lockout of
// identity/lockout.ts, shared by every instance.

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
    on conflict (key) do update set
      hits = case when r.window_ends_at <= now() then 1 else r.hits + 1 end,
      window_ends_at = case when r.window_ends_at <= now() then now() + ${window}::interval else r.window_ends_at end
    returning hits, greatest(1, ceil(extract(epoch from (window_ends_at - now()))))::int as retry_after`
    .execute(db)
    .then((result) => result.rows[0]);
  if (!row) throw new Error('rate limit upsert returned no row');
  return row;
}

/**
 * Counts one hit on a lockable key unless it is locked (then the count stays), in one atomic
 * upsert, so concurrent hits each see their own count.
 */
export async function hitUnlessLocked(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<{ hits: number; locked: boolean }> {
  const window = `${windowSeconds} seconds`;
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

/** Takes back one count from each key. */
export async function giveBack(db: Db | Tx, keys: string[]): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ hits: sql<number>`greatest(hits - 1, 0)` })
    .where('key', 'in', keys)
    .execute();
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
  await db
    .with('cleared', (qb) => qb.deleteFrom('rate_limits').where('key', '=', clearKey).returning('key'))
    .updateTable('rate_limits')
    .set({ hits: sql<number>`greatest(hits - 1, 0)` })
    .where('key', '=', giveBackKey)
    .execute();
}

/** Deletes counters whose window ended and that hold no lock; run by the housekeeping job. */
export async function prune(db: Db): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_ends_at', '<', sql<Date>`now()`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute();
}
