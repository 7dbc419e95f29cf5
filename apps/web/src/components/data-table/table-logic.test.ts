import { describe, expect, it } from 'vitest';
import { filterRows, nextSort, pageCount, pageRows, paginationWindow, sortRows } from './table-logic';

describe('paginationWindow', () => {
  it('shows nothing when everything fits on one page', () => {
    expect(paginationWindow(1, 0)).toEqual([]);
    expect(paginationWindow(1, 1)).toEqual([]);
  });

  it('shows every page when there are at most five', () => {
    expect(paginationWindow(1, 2)).toEqual([1, 2]);
    expect(paginationWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('adds the last page without a gap when it follows the window', () => {
    expect(paginationWindow(1, 6)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('puts an ellipsis before the last page when pages are skipped', () => {
    expect(paginationWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 20]);
    expect(paginationWindow(10, 20)).toEqual([8, 9, 10, 11, 12, 'ellipsis', 20]);
  });

  it('keeps five numbers at the end of the range', () => {
    expect(paginationWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(paginationWindow(17, 20)).toEqual([15, 16, 17, 18, 19, 20]);
  });

  it('clamps a page outside the range', () => {
    expect(paginationWindow(99, 7)).toEqual([3, 4, 5, 6, 7]);
    expect(paginationWindow(0, 7)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 7]);
  });
});

describe('pageCount and pageRows', () => {
  it('counts at least one page and slices 1-based pages', () => {
    expect(pageCount(0, 5)).toBe(1);
    expect(pageCount(5, 5)).toBe(1);
    expect(pageCount(6, 5)).toBe(2);
    expect(pageRows([1, 2, 3, 4, 5, 6, 7], 2, 5)).toEqual([6, 7]);
  });
});

describe('filterRows', () => {
  const rows = [
    { name: 'Jane Doe', org: 'Acme Imaging' },
    { name: 'John Roe', org: 'Globex' },
  ];
  const text = (row: (typeof rows)[number]) => [row.name, row.org];

  it('matches any field case-insensitively, ignoring surrounding spaces', () => {
    expect(filterRows(rows, '  acme ', text)).toEqual([rows[0]]);
    expect(filterRows(rows, 'ROE', text)).toEqual([rows[1]]);
    expect(filterRows(rows, 'o', text)).toEqual(rows);
  });

  it('returns every row for an empty filter and none for no match', () => {
    expect(filterRows(rows, '', text)).toEqual(rows);
    expect(filterRows(rows, 'zzz', text)).toEqual([]);
  });
});

describe('sortRows and nextSort', () => {
  it('sorts text case-insensitively with numbers in order, both ways, without changing the input', () => {
    const rows = ['item 10', 'Item 2', 'apple'];
    expect(sortRows(rows, 'asc', (r) => r)).toEqual(['apple', 'Item 2', 'item 10']);
    expect(sortRows(rows, 'desc', (r) => r)).toEqual(['item 10', 'Item 2', 'apple']);
    expect(rows).toEqual(['item 10', 'Item 2', 'apple']);
  });

  it('sorts numbers numerically and keeps ties in their order', () => {
    const rows = [
      { id: 'a', n: 3 },
      { id: 'b', n: 1 },
      { id: 'c', n: 3 },
    ];
    expect(sortRows(rows, 'asc', (r) => r.n).map((r) => r.id)).toEqual(['b', 'a', 'c']);
  });

  it('sorts a new column ascending and flips the sorted one', () => {
    expect(nextSort(undefined, 'email')).toEqual({ key: 'email', direction: 'asc' });
    expect(nextSort({ key: 'email', direction: 'asc' }, 'email')).toEqual({
      key: 'email',
      direction: 'desc',
    });
    expect(nextSort({ key: 'email', direction: 'desc' }, 'email')).toEqual({
      key: 'email',
      direction: 'asc',
    });
    expect(nextSort({ key: 'email', direction: 'desc' }, 'org')).toEqual({ key: 'org', direction: 'asc' });
  });
});
