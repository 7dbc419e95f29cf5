import { tooManyRequests } from '../platform/app-error';
import type { Db, Tx } from '../platform/db';
import * as rateLimits from '../store/rate-limits';

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
  const row = await rateLimits.hit(db, key, rule.windowSeconds);
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
