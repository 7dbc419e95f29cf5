import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import type { Page } from '@pra/contracts/paging';
import { useDebouncedValue } from '../use-debounced-value';
import { nextSort, pageCount, type SortState } from './table-logic';
import type { DataColumn, DataTableState } from './use-data-table';

/** How long the filter box waits for typing to pause before asking the server. */
export const FILTER_DEBOUNCE_MS = 300;

/** The page a server table asks for (the paging query of contracts' pageQuery). */
export interface PageParams {
  page: number;
  size: number;
  filter?: string;
  sort?: string;
  direction?: 'asc' | 'desc';
}

export interface ServerTableOptions<T, P extends Page<T> = Page<T>> {
  /** The list's query key; the page asked for is appended, so invalidating the key reloads it. */
  queryKey: QueryKey;
  columns: readonly DataColumn<T>[];
  pageSize: number;
  initialSort?: SortState;
  /** Asks the server for one page; `signal` withdraws a call that a newer one superseded. */
  fetchPage: (params: PageParams, signal: AbortSignal) => Promise<P>;
  enabled?: boolean;
}

/**
 * A DataTable's state whose rows the server filters, sorts and pages: the filter is sent once
 * typing pauses, each change of page, sort or filter asks for one page, and a call a newer one
 * supersedes is aborted (react-query cancels a query left without observers once its signal is
 * used). The page shown stays until the next arrives.
 */
export function useServerTable<T, P extends Page<T> = Page<T>>(options: ServerTableOptions<T, P>) {
  const { queryKey, columns, pageSize, initialSort, fetchPage, enabled = true } = options;
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState | undefined>(initialSort);
  const settledFilter = useDebouncedValue(filter.trim(), FILTER_DEBOUNCE_MS);
  // The page chosen for the current filter and sort: a new filter or sort starts at page 1.
  const [chosen, setChosen] = useState({ page: 1, filter: '', sort: initialSort });
  const requestedPage = chosen.filter === settledFilter && chosen.sort === sort ? chosen.page : 1;

  const params: PageParams = {
    page: requestedPage,
    size: pageSize,
    ...(settledFilter ? { filter: settledFilter } : {}),
    ...(sort ? { sort: sort.key, direction: sort.direction } : {}),
  };
  const query = useQuery({
    queryKey: [...queryKey, params],
    queryFn: ({ signal }) => fetchPage(params, signal),
    placeholderData: keepPreviousData,
    meta: { alertOnError: true },
    enabled,
  });
  const data = query.data;

  const table: DataTableState<T> = {
    columns,
    pageSize,
    filter,
    setFilter,
    sort,
    toggleSort(key: string) {
      setSort((current) => nextSort(current, key));
    },
    // The server answers the last page when the asked one is past it (a reload, a narrower filter).
    page: data?.page ?? requestedPage,
    setPage(page: number) {
      setChosen({ page, filter: settledFilter, sort });
    },
    totalPages: pageCount(data?.matching ?? 0, pageSize),
    matchingCount: data?.matching ?? 0,
    totalCount: data?.total ?? 0,
    visibleRows: data?.items ?? [],
  };
  // The whole answer too: some lists say more than their rows (a report's period).
  return { table, answer: data, isPending: query.isPending, isFetching: query.isFetching };
}
