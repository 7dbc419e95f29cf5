import { sql } from 'kysely';
import { tooManyRequests } from '../platform/app-error';
import type { Db, Tx } from '../platform/db';

export interface RateLimitRule {
  /** Hits allowed within one window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  hits: number;
  retryAfterSeconds: number;
}

/**
 * Counts one hit against `key` in the shared rate_limits table and says whether it is within the
 * rule. One atomic upsert, so every instance sees the same counter.
 */
export async function hitRateLimit(db: Db | Tx, key: string, rule: RateLimitRule): Promise<RateLimitResult> {
  const window = `${rule.windowSeconds} seconds`;
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
  return { allowed: row.hits <= rule.limit, hits: row.hits, retryAfterSeconds: row.retry_after };
}

/**
 * Counts one hit against `key` and refuses the call past the rule: a 429 saying (and sending as
 * Retry-After) the seconds until the window ends.
 */
export async function enforceRateLimit(db: Db | Tx, key: string, rule: RateLimitRule): Promise<void> {
  const result = await hitRateLimit(db, key, rule);
  if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds);
}

/** Deletes counters whose window ended; run by the housekeeping job. */
export async function pruneRateLimits(db: Db): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_ends_at', '<', sql<Date>`now()`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute();
}
