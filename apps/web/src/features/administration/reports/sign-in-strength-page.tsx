import { adminApi } from '@pra/contracts/paths';
import type { SignInStrengthRow } from '@pra/contracts/security-keys';
import { getSignInStrength } from '@pra/contracts/endpoints/governance';
import { callEndpoint } from '../../../api/client';
import { reportCsvUrl } from '../../../api/administration';
import { useServerTable } from '../../../components/data-table/use-server-table';
import type { DataColumn } from '../../../components/data-table/use-data-table';
import { adminKeys } from '../use-admin-action';
import { counted, ReportFrame } from './report-frame';

const percent = (share: number) => `${Math.round(share * 100)}%`;

const columns: DataColumn<SignInStrengthRow>[] = [
  { key: 'name', header: 'Organization', sortValue: (r) => r.name, render: (r) => r.name },
  { key: 'riskTier', header: 'Risk tier', render: (r) => (r.riskTier === 'high' ? 'High' : 'Standard') },
  { key: 'vendors', header: 'Active vendors', sortValue: (r) => r.vendors, render: (r) => r.vendors },
  { key: 'phishingResistant', header: 'Security key or passkey', render: (r) => r.phishingResistant },
  { key: 'share', header: 'Share', sortValue: (r) => r.share, render: (r) => percent(r.share) },
];

/** Administration → Reports → Sign-in Strength (GOVERNANCE.md §7.1, §9.2). */
export function SignInStrengthPage() {
  const report = useServerTable({
    queryKey: adminKeys.reportSignInStrength,
    columns,
    pageSize: 25,
    initialSort: { key: 'name', direction: 'asc' },
    fetchPage: async (params, signal) =>
      callEndpoint(getSignInStrength, {
        query: { ...params, sort: params.sort as 'name' | undefined },
        signal,
      }),
  });
  return (
    <ReportFrame
      id="strength-heading"
      title="Sign-in Strength"
      intro="Per organization with active vendors, how many sign in phishing-resistantly (a security key or passkey)."
      downloadHref={reportCsvUrl(adminApi.reportSignInStrengthCsv, { filter: report.table.filter.trim() })}
      report={report}
      count={counted('organization', 'organizations')}
      caption="Sign-in strength per organization"
      filterLabel="Filter by organization"
      emptyText="No organization has active vendors."
      getRowKey={(r) => r.id}
    />
  );
}
