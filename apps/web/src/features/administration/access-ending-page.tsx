import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { ENDING_WINDOWS, endingMessages, type EndingRow } from '@pra/contracts/governance';
import { getAccessEnding } from '@pra/contracts/endpoints/governance';
import { callEndpoint } from '../../api/client';
import { endingExportUrl } from '../../api/administration';
import { DataTable } from '../../components/data-table/data-table';
import { useServerTable } from '../../components/data-table/use-server-table';
import type { DataColumn } from '../../components/data-table/use-data-table';
import { adminKeys } from './use-admin-action';
import { useReportOrganizations } from './reports/use-report-organizations';
import { vendorColumn } from './reports/report-frame';

const PAGE_SIZE = 25;

const columns: DataColumn<EndingRow>[] = [
  {
    key: 'endsOn',
    header: 'Access ends',
    sortValue: (r) => r.endsOn,
    className: 'text-nowrap',
    render: (r) => (
      <>
        {r.endsOn}{' '}
        <Badge bg={r.daysLeft < 7 ? 'danger' : 'secondary'}>
          {r.daysLeft === 1 ? '1 day' : `${r.daysLeft} days`}
        </Badge>
      </>
    ),
  },
  {
    key: 'organization',
    header: 'Organization',
    sortValue: (r) => r.organization,
    render: (r) => r.organization,
  },
  vendorColumn(),
  {
    key: 'sponsor',
    header: 'Sponsor',
    sortValue: (r) => r.sponsor ?? '',
    render: (r) => r.sponsor ?? 'No sponsor',
  },
  {
    key: 'extension',
    header: 'Extension',
    render: (r) =>
      r.extensionPending ? (
        <Badge bg="info" text="dark">
          Pending
        </Badge>
      ) : (
        '—'
      ),
  },
];

/** Administration → Reports → Access ending (GOVERNANCE.md §3.2): grants ending soon, CSV download. */
export function AccessEndingPage() {
  const [days, setDays] = useState(30);
  const [organization, setOrganization] = useState('');
  const orgs = useReportOrganizations();
  const report = useServerTable({
    queryKey: [...adminKeys.reportEnding, days, organization],
    columns,
    pageSize: PAGE_SIZE,
    initialSort: { key: 'endsOn', direction: 'asc' },
    fetchPage: async (params, signal) =>
      callEndpoint(getAccessEnding, {
        query: {
          ...params,
          sort: params.sort as 'endsOn' | undefined,
          days,
          ...(organization ? { organization } : {}),
        },
        signal,
      }),
  });
  const { table } = report;
  const filter = table.filter.trim();
  return (
    <section aria-labelledby="ending-heading">
      <h2 id="ending-heading" className="h4">
        {endingMessages.heading}
      </h2>
      <p>
        Vendor access that ends in the coming days, by end date. Sponsors can extend it; vendors can ask them
        to.
      </p>
      <div className="row g-2 align-items-end mb-2">
        <Form.Group className="col-12 col-sm-4 col-lg-3" controlId="ending-days">
          <Form.Label>Ending within</Form.Label>
          <Form.Select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {ENDING_WINDOWS.map((n) => (
              <option key={n} value={n}>
                {n} days
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-12 col-sm-8 col-lg-5" controlId="ending-organization">
          <Form.Label>Organization</Form.Label>
          <Form.Select value={organization} onChange={(e) => setOrganization(e.target.value)}>
            <option value="">All organizations</option>
            {orgs?.organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <div className="col-12 col-lg-4 text-lg-end">
          <a
            className="btn btn-outline-secondary"
            href={endingExportUrl({
              days,
              ...(organization ? { organization } : {}),
              ...(filter ? { filter } : {}),
            })}
            download
          >
            {endingMessages.download}
          </a>
        </div>
      </div>
      {report.isPending ? (
        <p role="status">
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          Loading the report…
        </p>
      ) : (
        <>
          <p className="small text-body-secondary mb-2" role="status">
            {table.totalCount === 1 ? '1 grant ends' : `${table.totalCount} grants end`} in this period.
          </p>
          <DataTable
            table={table}
            caption="Access ending"
            filterLabel="Filter by organization, vendor, email or sponsor"
            emptyText={endingMessages.none}
            getRowKey={(r) => `${r.organizationId}/${r.username}`}
          />
        </>
      )}
    </section>
  );
}
