import type { Endpoint } from '@pra/contracts/endpoint';
import type { Page } from '@pra/contracts/paging';
import { expect } from 'vitest';
import type { TestClient } from './test-app';

/**
 * The reference the paged lists are held to: the list's unpaged answer, filtered and sorted the
 * way the browser did before the server paged (contains, case-insensitive, over the filter texts;
 * a stable sort by one column, so ties keep the unpaged order).
 */
export function referenceRows<T>(
  rows: readonly T[],
  filter: string,
  texts: (row: T) => string[],
  sortValue: (row: T) => string | number,
  direction: 'asc' | 'desc',
): T[] {
  const needle = filter.trim().toLowerCase();
  const matching = needle
    ? rows.filter((row) => texts(row).some((text) => text.toLowerCase().includes(needle)))
    : [...rows];
  const sign = direction === 'asc' ? 1 : -1;
  const key = (row: T) => {
    const value = sortValue(row);
    return typeof value === 'number' ? value : value.toLowerCase();
  };
  return matching.sort((a, b) => {
    const left = key(a);
    const right = key(b);
    return (left < right ? -1 : left > right ? 1 : 0) * sign;
  });
}

/** Every page of a paged list for one filter and sort, asked `size` rows at a time, checked as it goes. */
export async function allPages<T>(
  client: TestClient,
  endpoint: Endpoint,
  query: Record<string, string | number>,
  size: number,
): Promise<{ rows: T[]; total: number; matching: number }> {
  const rows: T[] = [];
  let page = 1;
  for (;;) {
    const res = await client.call(endpoint as never, { query: { ...query, page, size } as never });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Page<T>>();
    expect(body.page).toBe(body.matching === 0 ? 1 : page);
    expect(body.size).toBe(size);
    expect(body.items.length).toBe(Math.min(size, Math.max(0, body.matching - (page - 1) * size)));
    rows.push(...body.items);
    if (page * size >= body.matching) return { rows, total: body.total, matching: body.matching };
    page += 1;
  }
}
