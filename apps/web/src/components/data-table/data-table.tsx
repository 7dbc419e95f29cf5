import { Fragment, useId, useState, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { ChevronRightIcon } from '../icons';
import { ScrollTable } from '../scroll-table';
import { TablePagination } from './table-pagination';
import type { DataColumn, DataTableState } from './use-data-table';
import './data-table.css';

interface DataTableProps<T> {
  table: DataTableState<T>;
  /** Names the table for assistive technology (rendered as a visually hidden caption). */
  caption: string;
  /** Label of the filter box, e.g. 'Filter by name, email or organization'. */
  filterLabel: string;
  emptyText: string;
  getRowKey: (row: T) => string;
  /** When given, each row gets a toggle that shows these details below it. */
  renderDetails?: (row: T) => ReactNode;
  /** Accessible name of a row's details toggle, e.g. 'Details for Jane Doe'. */
  detailsLabel?: (row: T) => string;
  /** Extra class per row (e.g. italic for disabled users). */
  rowClassName?: (row: T) => string | undefined;
  /**
   * On a phone each row becomes a block, its cells under their column's name (the admin screens'
   * `table-stacked-phone`), instead of a table that scrolls sideways.
   */
  stackOnPhone?: boolean;
}

/** A filterable, sortable, paged table; the state lives in `useDataTable` so the owner can reset the page. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { table, caption, filterLabel, emptyText, getRowKey, renderDetails, detailsLabel, rowClassName } =
    props;
  const { stackOnPhone = false } = props;
  const id = useId();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const columnCount = table.columns.length + (renderDetails ? 1 : 0);

  const toggle = (key: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <div className="data-table">
      <Form.Group className="mb-3 data-table-filter" controlId={`${id}-filter`}>
        <Form.Label>{filterLabel}</Form.Label>
        <Form.Control
          type="search"
          value={table.filter}
          onChange={(event) => table.setFilter(event.target.value)}
        />
      </Form.Group>
      <ScrollTable label={caption}>
        <Table hover className={stackOnPhone ? 'align-middle table-stacked-phone' : 'align-middle'}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {renderDetails && (
                <th scope="col" className="data-table-toggle-col">
                  <span className="visually-hidden">Details</span>
                </th>
              )}
              {table.columns.map((column) => (
                <HeaderCell key={column.key} column={column} table={table} />
              ))}
            </tr>
          </thead>
          <tbody>
            {table.visibleRows.length === 0 && (
              <tr>
                {/* Centred from tablet width; on a phone a wide table's centre is off to the side. */}
                <td colSpan={columnCount} className="text-md-center text-body-secondary">
                  {emptyText}
                </td>
              </tr>
            )}
            {table.visibleRows.map((row) => {
              const key = getRowKey(row);
              const isExpanded = expanded.has(key);
              const detailsId = `${id}-details-${key}`;
              return (
                <Fragment key={key}>
                  <tr className={rowClassName?.(row)}>
                    {renderDetails && (
                      <td>
                        <button
                          type="button"
                          className="btn btn-sm btn-link data-table-toggle"
                          aria-expanded={isExpanded}
                          aria-controls={isExpanded ? detailsId : undefined}
                          aria-label={detailsLabel?.(row) ?? 'Details'}
                          onClick={() => toggle(key)}
                        >
                          <ChevronRightIcon className={isExpanded ? 'rotate-90' : undefined} />
                        </button>
                      </td>
                    )}
                    {table.columns.map((column) => (
                      <td
                        key={column.key}
                        className={columnClass(column)}
                        data-label={stackOnPhone ? column.header : undefined}
                      >
                        {column.render(row)}
                      </td>
                    ))}
                  </tr>
                  {renderDetails && isExpanded && (
                    <tr id={detailsId} className="data-table-details">
                      <td colSpan={columnCount}>
                        {/* Stays within the visible width of a table that scrolls sideways. */}
                        <div className="data-table-details-body">{renderDetails(row)}</div>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </Table>
      </ScrollTable>
      <TablePagination
        page={table.page}
        totalPages={table.totalPages}
        onPageChange={table.setPage}
        label={`${caption} pages`}
      />
    </div>
  );
}

/** The cell class of a column: its own, and the pinning (see DataColumn.pinned). */
function columnClass<T>(column: DataColumn<T>): string | undefined {
  const pinned = column.pinned ? `data-table-pinned-${column.pinned}` : undefined;
  return [column.className, pinned].filter(Boolean).join(' ') || undefined;
}

/** Whether the element's content is wider than the element (the table scrolls sideways). */
function HeaderCell<T>({ column, table }: { column: DataColumn<T>; table: DataTableState<T> }) {
  const className = columnClass(column);
  if (!column.sortValue) {
    return (
      <th scope="col" className={className}>
        {column.header}
      </th>
    );
  }
  const direction = table.sort?.key === column.key ? table.sort.direction : undefined;
  const ariaSort = direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
  const indicator = direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕';
  return (
    <th scope="col" aria-sort={ariaSort} className={className}>
      <button type="button" className="data-table-sort" onClick={() => table.toggleSort(column.key)}>
        {column.header}
        <span className="ms-1 data-table-sort-indicator" aria-hidden="true">
          {indicator}
        </span>
      </button>
    </th>
  );
}
