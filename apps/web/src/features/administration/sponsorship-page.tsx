import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQuery } from '@tanstack/react-query';
import { sponsorshipReport, type SponsorshipGrant } from '@pra/contracts/departure';
import { peopleList } from '@pra/contracts/administration';
import { adminApi } from '@pra/contracts/paths';
import * as admin from '@pra/contracts/endpoints/administration';
import * as departure from '@pra/contracts/endpoints/departure';
import { callEndpoint } from '../../api/client';
import { reportCsvUrl } from '../../api/administration';
import { useServerTable } from '../../components/data-table/use-server-table';
import type { DataColumn } from '../../components/data-table/use-data-table';
import { isAdmin } from '../../lib/account-kinds';
import { useCurrentUser } from '../../lib/use-current-user';
import { counted, ReportFrame } from './reports/report-frame';
import { adminKeys, useAdminAction } from './use-admin-action';

const sponsorText = (former: string | null) => (former ? `${former} (no longer a BRM of it)` : 'No sponsor');

const keyOf = (g: { accountId: string; organizationId: string }) => `${g.accountId}/${g.organizationId}`;

const reportColumns: DataColumn<SponsorshipGrant>[] = [
  {
    key: 'vendor',
    header: 'Vendor',
    sortValue: (g) => g.name,
    render: (g) => (
      <>
        {g.name}
        <div className="small text-body-secondary">{g.username}</div>
      </>
    ),
  },
  {
    key: 'organization',
    header: 'Organization',
    sortValue: (g) => g.organization,
    render: (g) => g.organization,
  },
  {
    key: 'expiresAt',
    header: 'Access ends',
    sortValue: (g) => g.expiresAt,
    className: 'text-nowrap',
    render: (g) => g.expiresAt.slice(0, 10),
  },
  { key: 'sponsor', header: 'Sponsor on record', render: (g) => sponsorText(g.formerSponsor) },
];

/**
 * Administration → Reports → Sponsorship (GOVERNANCE.md §6.2): grants with no sponsor or a sponsor
 * who no longer manages the organization, paged on the server, with its CSV; admins who are not
 * auditors choose grants and "Assign sponsor" (a BRM of each organization chosen; the server
 * refuses otherwise).
 */
export function SponsorshipPage() {
  const user = useCurrentUser().data;
  const canAssign = user !== undefined && isAdmin(user) && user.isAuditor !== true;
  const { data: everyone } = useQuery({
    queryKey: adminKeys.people,
    queryFn: ({ signal }) => callEndpoint(admin.listPeople, { signal }, peopleList),
    enabled: canAssign,
  });
  const brms = (everyone?.people ?? []).filter((p) => p.isEmployeeBrm && p.status === 'active');
  const [chosen, setChosen] = useState<ReadonlyMap<string, SponsorshipGrant>>(new Map());
  const [sponsorId, setSponsorId] = useState('');
  const toggle = (g: SponsorshipGrant, on: boolean) =>
    setChosen((before) => {
      const next = new Map(before);
      if (on) next.set(keyOf(g), g);
      else next.delete(keyOf(g));
      return next;
    });
  const choose: DataColumn<SponsorshipGrant> = {
    key: 'choose',
    header: 'Choose',
    render: (g) => (
      <Form.Check
        aria-label={`Choose ${g.name} (${g.organization})`}
        checked={chosen.has(keyOf(g))}
        onChange={(e) => toggle(g, e.target.checked)}
      />
    ),
  };
  const report = useServerTable({
    queryKey: adminKeys.reportSponsorship,
    columns: canAssign ? [choose, ...reportColumns] : reportColumns,
    pageSize: 25,
    initialSort: { key: 'organization', direction: 'asc' },
    fetchPage: async (params, signal) =>
      callEndpoint(
        departure.getSponsorship,
        { query: { ...params, sort: params.sort as 'organization' | undefined }, signal },
        sponsorshipReport,
      ),
  });
  const selected = [...chosen.values()];
  const assign = useAdminAction(
    () =>
      callEndpoint(departure.assignSponsor, {
        body: {
          sponsorId,
          grants: selected.map((g) => ({ accountId: g.accountId, organizationId: g.organizationId })),
        },
      }),
    {
      success: () =>
        selected.length === 1
          ? 'Sponsor assigned to 1 grant'
          : `Sponsor assigned to ${selected.length} grants`,
      refresh: [adminKeys.reportSponsorship],
    },
  );
  const page = report.table.visibleRows;

  return (
    <>
      <ReportFrame
        id="sponsorship-heading"
        title="Sponsorship"
        intro="Grants with no sponsor, or with a sponsor who no longer manages the organization. Their next review goes to the organization’s BRMs."
        filters={
          canAssign && (
            <Form
              className="col-12 col-lg-8 row g-2 align-items-end"
              onSubmit={(e) => {
                e.preventDefault();
                assign.mutate(undefined, { onSuccess: () => setChosen(new Map()) });
              }}
            >
              <Form.Group className="col-12 col-sm-6" controlId="sponsorship-sponsor">
                <Form.Label>Sponsor</Form.Label>
                <Form.Select value={sponsorId} onChange={(e) => setSponsorId(e.target.value)} required>
                  <option value="">Choose a BRM</option>
                  {brms.map((b) => (
                    <option key={b.id} value={b.id}>
                      {`${b.givenName} ${b.familyName}`.trim() || b.username}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <div className="col-12 col-sm-6 d-flex gap-2 flex-wrap">
                <Button type="submit" disabled={selected.length === 0 || !sponsorId || assign.isPending}>
                  Assign sponsor
                </Button>
                <Button
                  variant="outline-secondary"
                  disabled={page.length === 0}
                  onClick={() =>
                    setChosen((before) => new Map([...before, ...page.map((g) => [keyOf(g), g] as const)]))
                  }
                >
                  Choose this page
                </Button>
              </div>
              <p className="small text-body-secondary mb-0" role="status">
                {selected.length} chosen.
              </p>
            </Form>
          )
        }
        downloadHref={reportCsvUrl(adminApi.reportSponsorshipCsv, { filter: report.table.filter.trim() })}
        report={report}
        count={(n) => `${counted('grant', 'grants')(n)} without a current sponsor.`}
        caption="Grants without a current sponsor"
        filterLabel="Filter by organization, vendor or former sponsor"
        emptyText="Every grant has a sponsor who manages its organization."
        getRowKey={keyOf}
      />
    </>
  );
}
