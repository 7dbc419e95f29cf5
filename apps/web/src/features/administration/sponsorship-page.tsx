import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useQuery } from '@tanstack/react-query';
import { sponsorshipReport } from '@pra/contracts';
import { peopleList } from '@pra/contracts/administration';
import * as admin from '@pra/contracts/endpoints/administration';
import * as departure from '@pra/contracts/endpoints/departure';
import { callEndpoint } from '../../api/client';
import { adminKeys, useAdminAction } from './use-admin-action';

const sponsorText = (former: string | null) => (former ? `${former} (no longer a BRM of it)` : 'No sponsor');

const keyOf = (g: { accountId: string; organizationId: string }) => `${g.accountId}/${g.organizationId}`;

/**
 * Administration → Reports → Sponsorship (GOVERNANCE.md §6.2): grants with no sponsor or a sponsor
 * who no longer manages the organization, with bulk "Assign sponsor" (a BRM of each organization
 * chosen; the server refuses otherwise).
 */
export function SponsorshipPage() {
  const report = useQuery({
    queryKey: adminKeys.reportSponsorship,
    queryFn: ({ signal }) => callEndpoint(departure.getSponsorship, { signal }, sponsorshipReport),
    meta: { alertOnError: true },
  });
  const { data: everyone } = useQuery({
    queryKey: adminKeys.people,
    queryFn: ({ signal }) => callEndpoint(admin.listPeople, { signal }, peopleList),
  });
  const brms = (everyone?.people ?? []).filter((p) => p.isEmployeeBrm && p.status === 'active');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [sponsorId, setSponsorId] = useState('');
  const grants = report.data?.grants ?? [];
  const selected = grants.filter((g) => chosen.has(keyOf(g)));
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
  const toggle = (key: string, on: boolean) =>
    setChosen((before) => {
      const next = new Set(before);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const allChosen = grants.length > 0 && selected.length === grants.length;

  return (
    <section aria-labelledby="sponsorship-heading">
      <h2 id="sponsorship-heading" className="h4">
        Sponsorship
      </h2>
      <p>
        Grants with no sponsor, or with a sponsor who no longer manages the organization. Their next review
        goes to the organization’s BRMs. Choose grants and assign a sponsor who is a BRM of each organization.
      </p>
      {report.isPending ? (
        <p role="status">
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          Loading the report…
        </p>
      ) : grants.length === 0 ? (
        <p role="status">Every grant has a sponsor who manages its organization.</p>
      ) : (
        <>
          <Form
            className="row g-2 align-items-end mb-3"
            onSubmit={(e) => {
              e.preventDefault();
              assign.mutate(undefined, { onSuccess: () => setChosen(new Set()) });
            }}
          >
            <Form.Group className="col-12 col-sm-6 col-lg-4" controlId="sponsorship-sponsor">
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
            <div className="col-12 col-sm-6 col-lg-4">
              <Button type="submit" disabled={selected.length === 0 || !sponsorId || assign.isPending}>
                Assign sponsor
              </Button>
            </div>
          </Form>
          <p className="small text-body-secondary mb-2" role="status">
            {grants.length === 1 ? '1 grant' : `${grants.length} grants`} without a current sponsor;{' '}
            {selected.length} chosen.
          </p>
          <Table responsive striped className="align-middle">
            <caption className="visually-hidden">Grants without a current sponsor</caption>
            <thead>
              <tr>
                <th scope="col">
                  <Form.Check
                    aria-label="Choose every grant"
                    checked={allChosen}
                    onChange={(e) => setChosen(e.target.checked ? new Set(grants.map(keyOf)) : new Set())}
                  />
                </th>
                <th scope="col">Vendor</th>
                <th scope="col">Organization</th>
                <th scope="col" className="d-none d-md-table-cell">
                  Access ends
                </th>
                <th scope="col" className="d-none d-md-table-cell">
                  Sponsor on record
                </th>
              </tr>
            </thead>
            <tbody>
              {grants.map((g) => (
                <tr key={keyOf(g)}>
                  <td>
                    <Form.Check
                      aria-label={`Choose ${g.name} (${g.organization})`}
                      checked={chosen.has(keyOf(g))}
                      onChange={(e) => toggle(keyOf(g), e.target.checked)}
                    />
                  </td>
                  <td>
                    {g.name}
                    <div className="small text-body-secondary">{g.username}</div>
                    {/* On a phone the last two columns read under the name. */}
                    <div className="small text-body-secondary d-md-none">
                      Ends {g.expiresAt.slice(0, 10)} · {sponsorText(g.formerSponsor)}
                    </div>
                  </td>
                  <td>{g.organization}</td>
                  <td className="text-nowrap d-none d-md-table-cell">{g.expiresAt.slice(0, 10)}</td>
                  <td className="d-none d-md-table-cell">{sponsorText(g.formerSponsor)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </section>
  );
}
