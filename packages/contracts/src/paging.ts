import { z } from 'zod';
import { inputText } from './text';

/**
 * Server-side paging of the lists a person pages through (Manage Users, Approvals, available
 * roles, the admin lists). The query names a 1-based page, its size, a filter text and a sorted
 * column; the answer is that page with the counts the screen shows. A list called without any of
 * these keeps the answer the spec documents (the whole list), so older callers see no change.
 */

/** The most rows one page may ask for (the spec's pages are 5 and 10 rows). */
export const MAX_PAGE_SIZE = 100;

export const pagingMessages = {
  page: 'page must be a whole number from 1',
  size: `size must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
  filter: 'filter must be at most 255 characters, without control characters',
  sort: (keys: readonly string[]) => `sort must be one of: ${keys.join(', ')}`,
  direction: 'direction must be asc or desc',
} as const;

/** A whole number in a query string ("3"), within `min`..`max`, with one clear message. */
/* @__NO_SIDE_EFFECTS__ */
function wholeNumber(min: number, max: number, message: string) {
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
}

// Control characters cannot be typed into the filter box and would only serve to cross the
// separators of the database's search text (store/accounts.ts).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The query of a paged list sortable by `sortKeys` (the screen's sortable columns). */
/* @__NO_SIDE_EFFECTS__ */
export function pageQuery<const K extends readonly [string, ...string[]]>(sortKeys: K) {
  return z.strictObject({
    /** 1-based page number; past the last page the last page is answered. */
    page: wholeNumber(1, 1_000_000_000, pagingMessages.page).optional(),
    size: wholeNumber(1, MAX_PAGE_SIZE, pagingMessages.size).optional(),
    /** Case-insensitive "contains" over the list's filter fields; trimmed, '' matches everything. */
    filter: inputText()
      .max(255, pagingMessages.filter)
      .refine((text) => !CONTROL.test(text), pagingMessages.filter)
      .optional(),
    sort: z.enum(sortKeys, pagingMessages.sort(sortKeys)).optional(),
    direction: z.enum(['asc', 'desc'], pagingMessages.direction).optional(),
  });
}

/** The paging part of a parsed query, as the server reads it. */
export interface PageRequest<K extends string = string> {
  page: number;
  size: number;
  filter: string;
  sort: K | undefined;
  direction: 'asc' | 'desc';
}

/** Whether the query asks for a page at all (any paging parameter given). */
export function asksForPage(query: Record<string, unknown>): boolean {
  return ['page', 'size', 'filter', 'sort', 'direction'].some((key) => query[key] !== undefined);
}

/** The page asked for, with its defaults (first page, `defaultSize` rows, no filter). */
export function pageRequest<K extends string>(
  query: { page?: number; size?: number; filter?: string; sort?: K; direction?: 'asc' | 'desc' },
  defaultSize: number,
): PageRequest<K> {
  return {
    page: query.page ?? 1,
    size: query.size ?? defaultSize,
    filter: (query.filter ?? '').trim(),
    sort: query.sort,
    direction: query.direction ?? 'asc',
  };
}

/**
 * One page of `item`: its rows, `total` (every row the caller may see, unfiltered: "Managing N
 * users"), `matching` (the rows the filter matches, from which the pages are counted) and the
 * page answered (the last one when the asked page is past it).
 */
/* @__NO_SIDE_EFFECTS__ */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().min(0),
    matching: z.number().int().min(0),
    page: z.number().int().min(1),
    size: z.number().int().min(1),
  });
}

export interface Page<T> {
  items: T[];
  total: number;
  matching: number;
  page: number;
  size: number;
}

/** The page to answer: the asked one, or the last one when the asked one is past it. */
export function answeredPage(asked: number, size: number, matching: number): number {
  return Math.min(asked, Math.max(1, Math.ceil(matching / size)));
}
