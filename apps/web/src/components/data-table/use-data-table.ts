import { useState, type ReactNode } from 'react';
import { filterRows, nextSort, pageCount, pageRows, sortRows, type SortState } from './table-logic';

/** One column of a DataTable. */
export interface DataColumn<T> {
  key: string;
  header: string;
  /** Makes the column sortable by this value. */
  sortValue?: (row: T) => string | number;
  render: (row: T) => ReactNode;
  /** Extra class for the column's cells and header (e.g. 'text-nowrap'). */
  className?: string;
  /**
   * Keeps the column in view while a narrow table scrolls sideways (the Actions of Manage Users at
   * the start, Approve/Reject of the approvals at the end): its controls never hide off-screen.
   */
  pinned?: 'start' | 'end';
}

export interface DataTableOptions<T> {
  rows: readonly T[];
  columns: readonly DataColumn<T>[];
  pageSize: number;
  /** The texts the filter box matches against. */
  filterText: (row: T) => string[];
  initialSort?: SortState;
}

/** Filter, sort and page state of a table; the owner may reset the page (e.g. after a reload). */
export function useDataTable<T>({
  rows,
  columns,
  pageSize,
  filterText,
  initialSort,
}: DataTableOptions<T>): DataTableState<T> {
  const [filter, setFilterState] = useState('');
  const [sort, setSort] = useState<SortState | undefined>(initialSort);
  const [requestedPage, setPage] = useState(1);

  const filtered = filterRows(rows, filter, filterText);
  const sortValue = columns.find((column) => column.key === sort?.key)?.sortValue;
  const sorted = sort && sortValue ? sortRows(filtered, sort.direction, sortValue) : filtered;
  const totalPages = pageCount(sorted.length, pageSize);
  // Rows may shrink under the current page (a reload, a narrower filter): show the last one left.
  const page = Math.min(requestedPage, totalPages);

  return {
    columns,
    pageSize,
    filter,
    setFilter(value: string) {
      setFilterState(value);
      setPage(1);
    },
    sort,
    toggleSort(key: string) {
      setSort((current) => nextSort(current, key));
      setPage(1);
    },
    page,
    setPage,
    totalPages,
    /** Rows after filtering, before paging. */
    matchingCount: sorted.length,
    totalCount: rows.length,
    visibleRows: pageRows(sorted, page, pageSize),
  };
}

/** What a DataTable shows and does: from rows in hand (useDataTable) or pages of the server (useServerTable). */
export interface DataTableState<T> {
  columns: readonly DataColumn<T>[];
  pageSize: number;
  filter: string;
  setFilter: (value: string) => void;
  sort: SortState | undefined;
  toggleSort: (key: string) => void;
  page: number;
  setPage: (page: number) => void;
  totalPages: number;
  /** Rows after filtering, before paging. */
  matchingCount: number;
  /** Every row, unfiltered. */
  totalCount: number;
  visibleRows: readonly T[];
}
