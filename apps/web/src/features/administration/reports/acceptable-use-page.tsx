import Badge from 'react-bootstrap/Badge';
import { adminApi } from '@pra/contracts/paths';
import type { AupReportRow } from '@pra/contracts/policy-attestation';
import { getAupReport } from '@pra/contracts/endpoints/policy-attestation';
import { callEndpoint } from '../../../api/client';
import { reportCsvUrl } from '../../../api/administration';
import { useServerTable } from '../../../components/data-table/use-server-table';
import type { DataColumn } from '../../../components/data-table/use-data-table';
import { adminKeys } from '../use-admin-action';
import { counted, dateOf, ReportFrame, vendorColumn } from './report-frame';

const states: Record<AupReportRow['state'], { label: string; bg: string; text?: 'dark' }> = {
  current: { label: 'Current', bg: 'success' },
  due: { label: 'Due', bg: 'warning', text: 'dark' },
  overdue: { label: 'Overdue', bg: 'danger' },
};

const columns: DataColumn<AupReportRow>[] = [
  vendorColumn(),
  { key: 'organizations', header: 'Organizations', render: (r) => r.organizations || '—' },
  {
    key: 'version',
    header: 'Version accepted',
    sortValue: (r) => r.version ?? 0,
    render: (r) => (r.version === null ? 'None recorded' : `Version ${r.version}`),
  },
  {
    key: 'acceptedAt',
    header: 'Accepted at',
    sortValue: (r) => r.acceptedAt ?? '',
    className: 'text-nowrap',
    render: (r) => dateOf(r.acceptedAt),
  },
  { key: 'clientAddress', header: 'Client address', render: (r) => r.clientAddress ?? '—' },
  {
    key: 'state',
    header: 'State',
    render: (r) => (
      <Badge bg={states[r.state].bg} text={states[r.state].text}>
        {states[r.state].label}
      </Badge>
    ),
  },
];

/**
 * Administration → Reports → Acceptable Use Policy (GOVERNANCE.md §8.2, §9.2): per vendor, the
 * version last accepted, when and from which address, and whether the next review is due.
 */
export function AcceptableUsePage() {
  const report = useServerTable({
    queryKey: adminKeys.reportAcceptableUse,
    columns,
    pageSize: 25,
    initialSort: { key: 'vendor', direction: 'asc' },
    fetchPage: async (params, signal) =>
      callEndpoint(getAupReport, {
        query: { ...params, sort: params.sort as 'vendor' | undefined },
        signal,
      }),
  });
  const filter = report.table.filter.trim();
  return (
    <ReportFrame
      id="acceptable-use-heading"
      title="Acceptable Use Policy"
      intro="Per vendor, the version of the Acceptable Use Policy last accepted, when and from which address, and whether the yearly acceptance is current, due or overdue."
      downloadHref={reportCsvUrl(adminApi.reportAupCsv, { filter })}
      report={report}
      count={counted('vendor', 'vendors')}
      caption="Acceptable Use Policy acceptances"
      filterLabel="Filter by vendor, username, email or organization"
      emptyText="No vendor is asked to accept the Acceptable Use Policy."
      getRowKey={(r) => r.username}
    />
  );
}
