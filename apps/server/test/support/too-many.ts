import { expect } from 'vitest';
import { waitText } from '../../src/platform/app-error';

/**
 * Checks a 429 says when to try again: a Retry-After header, and the same wait in its message
 * after `reason` (what was too many).
 */
export function expectTooMany(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  reason = 'Too many attempts.',
): void {
  expect(res.statusCode).toBe(429);
  const seconds = Number(res.headers['retry-after']);
  expect(seconds).toBeGreaterThan(0);
  expect(res.json()).toEqual({ errors: [`${reason} Please try again in ${waitText(seconds)}.`] });
}
