import type { ReactNode } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { reportMessages } from '@pra/contracts/reports';
import { DataTable } from '../../../components/data-table/data-table';
import type { DataColumn, DataTableState } from '../../../components/data-table/use-data-table';

interface ReportFrameProps<T> {
  /** The heading's id, for the section's accessible name. */
  id: string;
  title: string;
  intro: ReactNode;
  /** The report's filters (selects, dates), shown above the table. */
  filters?: ReactNode;
  /** The CSV of what is shown; none for a report without one (Review Evidence has its files). */
  downloadHref?: string;
  report: { table: DataTableState<T>; isPending: boolean };
  /** "{n} grants" for the count line. */
  count: (n: number) => string;
  caption: string;
  filterLabel: string;
  emptyText: string;
  getRowKey: (row: T) => string;
}

/**
 * One report of Administration → Reports (GOVERNANCE.md §9.2): its heading and explanation, its
 * filters, "Download CSV" of what the filters show, and the server-paged table.
 */
export function ReportFrame<T>(props: ReportFrameProps<T>) {
  const { table } = props.report;
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id} className="h4">
        {props.title}
      </h2>
      <p>{props.intro}</p>
      <div className="row g-2 align-items-end mb-2">
        {props.filters}
        {props.downloadHref && (
          <div className="col-12 col-lg text-lg-end">
            <a className="btn btn-outline-secondary" href={props.downloadHref} download>
              {reportMessages.download}
            </a>
          </div>
        )}
      </div>
      {props.report.isPending ? (
        <p role="status">
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          Loading the report…
        </p>
      ) : (
        <>
          <p className="small text-body-secondary mb-2" role="status">
            {props.count(table.totalCount)}
          </p>
          <DataTable
            table={table}
            caption={props.caption}
            filterLabel={props.filterLabel}
            emptyText={props.emptyText}
            getRowKey={props.getRowKey}
            stackOnPhone
          />
        </>
      )}
    </section>
  );
}

/** "1 {one}" or "{n} {many}". */
export const counted = (one: string, many: string) => (n: number) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/** An ISO instant as its date (YYYY-MM-DD), or the text for none. */
export const dateOf = (iso: string | null, none = '—') => (iso ? iso.slice(0, 10) : none);

/** The "Vendor" column of a vendor's row: the name, with the username and email under it. */
export function vendorColumn<T extends { vendor: string; username: string; email: string }>(): DataColumn<T> {
  return {
    key: 'vendor',
    header: 'Vendor',
    sortValue: (r) => r.vendor,
    render: (r) => (
      <>
        {r.vendor}
        <div className="small text-body-secondary">
          {r.username} · {r.email}
        </div>
      </>
    ),
  };
}
