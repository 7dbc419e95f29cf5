import { z } from 'zod';

/**
 * The base of every string a request carries. PostgreSQL cannot store U+0000 (NUL) in text and
 * fails the whole statement, so a NUL is refused here, with a 400 naming the field, before any
 * query sees it. A lone surrogate (below) is refused too.
 */
export const NUL_MESSAGE = 'Must not contain NUL characters';

/* @__NO_SIDE_EFFECTS__ */
export function inputText() {
  return z
    .string()
    .refine((value) => !value.includes('\u0000'), NUL_MESSAGE)
    .refine((value) => !hasLoneSurrogate(value), LONE_SURROGATE_MESSAGE);
}

/**
 * Whether a parsed form or body holds a NUL or a lone surrogate anywhere (for forms that answer
 * with a page rather than through a route schema).
 */
export function containsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || hasLoneSurrogate(value);
  if (Array.isArray(value)) return value.some(containsUnstorableText);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => hasLoneSurrogate(key) || containsUnstorableText(item));
  }
  return false;
}

/**
 * A lone UTF-16 surrogate (JSON's `"\ud800"`) is no character: it cannot be stored as UTF-8 nor
 * in a JSON column, so every string of every request is checked for one (the server's validator
 * runs this before each schema) and refused with a 400 naming the field.
 */
export const LONE_SURROGATE_MESSAGE = 'Must not contain invalid characters (unpaired surrogates)';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether the text holds a surrogate without its pair. */
export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/** The path of every string (values and keys) in a parsed body, query or params holding one. */
export function loneSurrogatePaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => loneSurrogatePaths(item, [...path, index]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      hasLoneSurrogate(key) ? [[...path, key]] : loneSurrogatePaths(item, [...path, key]),
    );
  }
  return [];
}
