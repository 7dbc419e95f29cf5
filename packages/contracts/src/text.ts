import { z } from 'zod';

/**
 * The base of every string a request carries. PostgreSQL cannot store U+0000 (NUL) in text and
 * fails the whole statement, so a NUL is refused here, with a 400 naming the field, before any
 * query sees it.
 */
export const NUL_MESSAGE = 'Must not contain NUL characters';

export function inputText() {
  return z.string().refine((value) => !value.includes('\u0000'), NUL_MESSAGE);
}

/** Whether a parsed form or body holds a NUL anywhere (for forms that answer with a page). */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') return Object.values(value).some(containsNul);
  return false;
}
