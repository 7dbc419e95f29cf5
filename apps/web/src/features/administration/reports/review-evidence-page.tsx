import type { EvidenceCampaign } from '@pra/contracts/reports';
import { reviewsApi } from '@pra/contracts/paths';
import { getReviewEvidenceCampaigns } from '@pra/contracts/endpoints/reports';
import { callEndpoint } from '../../../api/client';
import { useServerTable } from '../../../components/data-table/use-server-table';
import type { DataColumn } from '../../../components/data-table/use-data-table';
import { adminKeys } from '../use-admin-action';
import { counted, dateOf, ReportFrame } from './report-frame';

const fileUrl = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

const columns: DataColumn<EvidenceCampaign>[] = [
  {
    key: 'organization',
    header: 'Organization',
    sortValue: (r) => r.organization,
    render: (r) => r.organization,
  },
  { key: 'cycle', header: 'Review cycle', sortValue: (r) => r.cycle, render: (r) => r.cycle },
  { key: 'items', header: 'Items', render: (r) => r.items },
  {
    key: 'closedAt',
    header: 'Closed',
    sortValue: (r) => r.closedAt ?? '',
    className: 'text-nowrap',
    render: (r) => (r.closedAt ? dateOf(r.closedAt) : `Not closed (${r.status})`),
  },
  {
    key: 'evidence',
    header: 'Evidence',
    className: 'text-nowrap',
    render: (r) =>
      r.status === 'closed' ? (
        <>
          <a
            href={fileUrl(reviewsApi.evidenceCsv, r.id)}
            download
            aria-label={`evidence.csv of ${r.organization}, ${r.cycle}`}
            className="me-3"
          >
            evidence.csv
          </a>
          <a
            href={fileUrl(reviewsApi.evidenceJson, r.id)}
            download
            aria-label={`evidence.json of ${r.organization}, ${r.cycle}`}
          >
            evidence.json
          </a>
        </>
      ) : (
        'Ready once closed'
      ),
  },
];

/**
 * Administration → Reports → Review Evidence (GOVERNANCE.md §9.3): per campaign, evidence.csv and
 * its manifest evidence.json (the CSV's SHA-256 and the audit event ids), the files the CLI's
 * `reviews export` writes too.
 */
export function ReviewEvidencePage() {
  const report = useServerTable({
    queryKey: adminKeys.reportReviewEvidence,
    columns,
    pageSize: 25,
    fetchPage: async (params, signal) =>
      callEndpoint(getReviewEvidenceCampaigns, {
        query: { ...params, sort: params.sort as 'closedAt' | undefined },
        signal,
      }),
  });
  return (
    <ReportFrame
      id="evidence-heading"
      title="Review Evidence"
      intro="Each closed access review campaign’s evidence: evidence.csv, one row per item (decision, justification, what was applied, by default or not), and evidence.json, its manifest with the CSV’s SHA-256 and the ids of its audit events."
      report={report}
      count={counted('campaign', 'campaigns')}
      caption="Access review campaigns"
      filterLabel="Filter by organization or review cycle"
      emptyText="No access review campaign yet."
      getRowKey={(r) => r.id}
    />
  );
}
