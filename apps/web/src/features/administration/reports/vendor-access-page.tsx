import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { adminApi } from '@pra/contracts/paths';
import type { VendorAccessRow } from '@pra/contracts/reports';
import { getVendorAccess } from '@pra/contracts/endpoints/reports';
import { callEndpoint } from '../../../api/client';
import { reportCsvUrl } from '../../../api/administration';
import { useServerTable } from '../../../components/data-table/use-server-table';
import type { DataColumn } from '../../../components/data-table/use-data-table';
import { adminKeys } from '../use-admin-action';
import { counted, dateOf, ReportFrame } from './report-frame';
import { useReportOrganizations } from './use-report-organizations';

const columns: DataColumn<VendorAccessRow>[] = [
  {
    key: 'vendor',
    header: 'Vendor',
    sortValue: (r) => r.vendor,
    render: (r) => (
      <>
        {r.vendor}
        <div className="small text-body-secondary">{r.organization}</div>
      </>
    ),
  },
  { key: 'username', header: 'Username', sortValue: (r) => r.username, render: (r) => r.username },
  { key: 'email', header: 'Email', render: (r) => r.email },
  {
    key: 'accessSince',
    header: 'Access since',
    sortValue: (r) => r.accessSince,
    className: 'text-nowrap',
    render: (r) => dateOf(r.accessSince),
  },
  {
    key: 'accessEnds',
    header: 'Access ends',
    sortValue: (r) => r.accessEnds,
    className: 'text-nowrap',
    render: (r) => dateOf(r.accessEnds),
  },
  { key: 'sponsor', header: 'Sponsor', render: (r) => r.sponsor ?? 'No sponsor' },
  { key: 'approvedBy', header: 'Approved by', render: (r) => r.approvedBy ?? '—' },
  {
    key: 'lastConfirmed',
    header: 'Last confirmed in review',
    render: (r) => dateOf(r.lastConfirmedInReview),
  },
  {
    key: 'lastSignIn',
    header: 'Last sign-in',
    sortValue: (r) => r.lastSignIn ?? '',
    className: 'text-nowrap',
    render: (r) => dateOf(r.lastSignIn, 'Never'),
  },
  { key: 'signInMethod', header: 'Sign-in method', render: (r) => r.signInMethod },
  { key: 'policyAccepted', header: 'Policy accepted', render: (r) => r.policyAccepted ?? 'Not recorded' },
  { key: 'status', header: 'Status', render: (r) => r.status },
];

/** Administration → Reports → Vendor Access (GOVERNANCE.md §9.2): per organization and period. */
export function VendorAccessPage() {
  const orgs = useReportOrganizations();
  const [organization, setOrganization] = useState('');
  // null: not chosen, the server's default period applies and the fields show it once answered.
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  // A date is sent once it is whole (a half-typed date is '' in a date field, not a query).
  const period = {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const report = useServerTable({
    queryKey: [...adminKeys.reportVendorAccess, organization, period],
    columns,
    pageSize: 25,
    initialSort: { key: 'vendor', direction: 'asc' },
    fetchPage: async (params, signal) =>
      callEndpoint(getVendorAccess, {
        query: {
          ...params,
          sort: params.sort as 'vendor' | undefined,
          ...period,
          ...(organization ? { organization } : {}),
        },
        signal,
      }),
  });
  const filter = report.table.filter.trim();
  return (
    <ReportFrame
      id="vendor-access-heading"
      title="Vendor Access"
      intro="Who had vendor access during the period (by default the last 90 days): current grants and those that ended in it."
      filters={
        <>
          <Form.Group className="col-12 col-sm-6 col-lg-4" controlId="vendor-access-organization">
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
          <Form.Group className="col-6 col-sm-3 col-lg-2" controlId="vendor-access-from">
            <Form.Label>From</Form.Label>
            <Form.Control
              type="date"
              value={from ?? report.answer?.from ?? ''}
              onChange={(e) => setFrom(e.target.value)}
            />
          </Form.Group>
          <Form.Group className="col-6 col-sm-3 col-lg-2" controlId="vendor-access-to">
            <Form.Label>To</Form.Label>
            <Form.Control
              type="date"
              value={to ?? report.answer?.to ?? ''}
              onChange={(e) => setTo(e.target.value)}
            />
          </Form.Group>
        </>
      }
      downloadHref={reportCsvUrl(adminApi.reportVendorAccessCsv, {
        organization,
        ...period,
        filter,
      })}
      report={report}
      count={counted('grant', 'grants')}
      caption="Vendor access in the period"
      filterLabel="Filter by organization, vendor, email or sponsor"
      emptyText="No vendor had access in this period."
      getRowKey={(r) => `${r.organizationId}/${r.username}/${r.accessSince}`}
    />
  );
}
