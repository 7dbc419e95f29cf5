import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { adminApi } from '@pra/contracts/paths';
import { dormantKindLabels, dormantKinds, type DormantKind, type DormantRow } from '@pra/contracts/reports';
import { getDormant } from '@pra/contracts/endpoints/reports';
import { callEndpoint } from '../../../api/client';
import { reportCsvUrl } from '../../../api/administration';
import { useServerTable } from '../../../components/data-table/use-server-table';
import type { DataColumn } from '../../../components/data-table/use-data-table';
import { adminKeys } from '../use-admin-action';
import { counted, dateOf, ReportFrame, vendorColumn } from './report-frame';

const reasons: Record<string, string> = {
  inactive: 'No sign-in for too long',
  noAccess: 'No access left',
  manual: 'Disabled by a BRM or admin',
  departureReported: 'Departure reported',
};

const columns: DataColumn<DormantRow>[] = [
  vendorColumn(),
  {
    key: 'kind',
    header: 'State',
    sortValue: (r) => r.kind,
    render: (r) => (
      <>
        {dormantKindLabels[r.kind]}
        {r.reason && <div className="small text-body-secondary">{reasons[r.reason] ?? r.reason}</div>}
      </>
    ),
  },
  {
    key: 'since',
    header: 'Since',
    sortValue: (r) => r.since,
    className: 'text-nowrap',
    render: (r) => dateOf(r.since),
  },
  {
    key: 'lastSignIn',
    header: 'Last sign-in',
    sortValue: (r) => r.lastSignIn ?? '',
    className: 'text-nowrap',
    render: (r) => dateOf(r.lastSignIn, 'Never'),
  },
  {
    key: 'closesOn',
    header: 'Closes on',
    sortValue: (r) => r.closesOn ?? '',
    className: 'text-nowrap',
    render: (r) => r.closesOn ?? '—',
  },
  { key: 'organizations', header: 'Organizations', render: (r) => r.organizations || '—' },
];

/** Administration → Reports → Dormant and Disabled (GOVERNANCE.md §6.2). */
export function DormantPage() {
  const [kind, setKind] = useState<DormantKind | ''>('');
  const report = useServerTable({
    queryKey: [...adminKeys.reportDormant, kind],
    columns,
    pageSize: 25,
    initialSort: { key: 'since', direction: 'desc' },
    fetchPage: async (params, signal) =>
      callEndpoint(getDormant, {
        query: { ...params, sort: params.sort as 'since' | undefined, ...(kind ? { kind } : {}) },
        signal,
      }),
  });
  const filter = report.table.filter.trim();
  return (
    <ReportFrame
      id="dormant-heading"
      title="Dormant and Disabled"
      intro="Vendor accounts warned for inactivity, disabled (with the reason and since when), and never activated; accounts disabled by automation or never activated are closed on the day shown."
      filters={
        <Form.Group className="col-12 col-sm-6 col-lg-4" controlId="dormant-kind">
          <Form.Label>State</Form.Label>
          <Form.Select value={kind} onChange={(e) => setKind(e.target.value as DormantKind | '')}>
            <option value="">Every state</option>
            {dormantKinds.map((k) => (
              <option key={k} value={k}>
                {dormantKindLabels[k]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      }
      downloadHref={reportCsvUrl(adminApi.reportDormantCsv, { kind, filter })}
      report={report}
      count={counted('account', 'accounts')}
      caption="Dormant and disabled vendor accounts"
      filterLabel="Filter by vendor, username, email or organization"
      emptyText="No vendor account is warned, disabled or waiting for activation."
      getRowKey={(r) => r.accountId}
    />
  );
}
