import { useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { aupMessages, type NotAcceptedRow } from '@pra/contracts/policy-attestation';
import { adminApi } from '@pra/contracts/paths';
import * as calls from '@pra/contracts/endpoints/policy-attestation';
import { ApiError, callEndpoint } from '../../api/client';
import { DataTable } from '../../components/data-table/data-table';
import { useServerTable } from '../../components/data-table/use-server-table';
import type { DataColumn } from '../../components/data-table/use-data-table';
import { PolicyMarkdown } from '../../components/acceptable-use-policy/policy-markdown';
import { showAlert } from '../../lib/alerts';
import { useCurrentUser } from '../../lib/use-current-user';
import '../../components/acceptable-use-policy/acceptable-use-policy.css';
import { ScrollTable } from '../../components/scroll-table';

const versionsKey = ['admin', 'aup', 'versions'] as const;
const notAcceptedKey = ['admin', 'aup', 'not-accepted'] as const;
const PAGE_SIZE = 25;

const columns: DataColumn<NotAcceptedRow>[] = [
  {
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
  },
  {
    key: 'organization',
    header: 'Organizations',
    sortValue: (r) => r.organizations,
    render: (r) => r.organizations,
  },
  {
    key: 'state',
    header: 'State',
    sortValue: (r) => r.state,
    render: (r) =>
      r.state === 'overdue' ? (
        <Badge bg="danger">Overdue</Badge>
      ) : (
        <Badge bg="warning" text="dark">
          Due
        </Badge>
      ),
  },
  {
    key: 'accepted',
    header: 'Last accepted',
    render: (r) =>
      r.acceptedVersion === null ? 'None recorded' : `Version ${r.acceptedVersion} on ${r.acceptedOn ?? ''}`,
  },
  {
    key: 'dueOn',
    header: 'Due on',
    sortValue: (r) => r.dueOn,
    className: 'text-nowrap',
    render: (r) => r.dueOn,
  },
  { key: 'blocksAfter', header: 'Blocked after', className: 'text-nowrap', render: (r) => r.blocksAfter },
];

/**
 * Administration → Acceptable Use Policy (/admin/aup, GOVERNANCE.md §8.2): the versions, "Publish
 * New Version" (title, Markdown, effective date, preview) and "Who has not accepted" with its CSV.
 * Auditors read it all; the publish button is not theirs.
 */
export function AdminAupPage() {
  const readOnly = useCurrentUser().data?.isAuditor === true;
  const [isPublishing, setIsPublishing] = useState(false);
  const { data } = useQuery({
    queryKey: versionsKey,
    queryFn: ({ signal }) => callEndpoint(calls.listAupVersions, { signal }),
    meta: { alertOnError: true },
  });
  const report = useServerTable({
    queryKey: notAcceptedKey,
    columns,
    pageSize: PAGE_SIZE,
    initialSort: { key: 'dueOn', direction: 'asc' },
    fetchPage: async (params, signal) =>
      callEndpoint(calls.listAupNotAccepted, {
        query: { ...params, sort: params.sort as 'dueOn' | undefined },
        signal,
      }),
  });
  const { table } = report;
  const filter = table.filter.trim();
  const csv = `${adminApi.aupNotAcceptedCsv}${filter ? `?${new URLSearchParams({ filter }).toString()}` : ''}`;
  return (
    <>
      <section aria-labelledby="aup-versions-heading" className="mb-5">
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
          <h2 id="aup-versions-heading" className="h4 mb-0">
            {aupMessages.adminHeading}
          </h2>
          {!readOnly && <Button onClick={() => setIsPublishing(true)}>{aupMessages.publish}</Button>}
        </div>
        <p>
          Vendors accept the newest version once a year and whenever a new one is published; 30 days after the
          due date, the portal shows them nothing else until they accept it.
        </p>
        <h3 className="h5">{aupMessages.versions}</h3>
        <ScrollTable label="Published versions">
          <Table size="sm" className="align-middle">
            <caption className="visually-hidden">Published versions</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Title</th>
                <th scope="col">Effective</th>
                <th scope="col">Published</th>
                <th scope="col">SHA-256</th>
              </tr>
            </thead>
            <tbody>
              {data?.versions.map((v) => (
                <tr key={v.version}>
                  <td>{v.version}</td>
                  <td>{v.title}</td>
                  <td className="text-nowrap">{v.effectiveOn}</td>
                  <td className="text-nowrap">
                    {v.publishedAt.slice(0, 10)}
                    {v.publishedBy ? ` by ${v.publishedBy}` : ''}
                  </td>
                  <td>
                    <code title={v.sha256}>{v.sha256.slice(0, 12)}…</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ScrollTable>
      </section>
      <section aria-labelledby="aup-not-accepted-heading">
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
          <h2 id="aup-not-accepted-heading" className="h4 mb-0">
            {aupMessages.notAccepted}
          </h2>
          <a className="btn btn-outline-secondary" href={csv} download>
            {aupMessages.download}
          </a>
        </div>
        {report.isPending ? (
          <p role="status">
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
            Loading…
          </p>
        ) : (
          <DataTable
            table={table}
            caption={aupMessages.notAccepted}
            filterLabel="Filter by vendor, email or organization"
            emptyText="No vendor is due or overdue."
            getRowKey={(r) => r.username}
          />
        )}
      </section>
      {isPublishing && <PublishDialog onHide={() => setIsPublishing(false)} />}
    </>
  );
}

function PublishDialog({ onHide }: { onHide: () => void }) {
  const id = useId();
  const client = useQueryClient();
  const [title, setTitle] = useState('Acceptable Use Policy');
  const [bodyMd, setBodyMd] = useState('');
  const [effectiveOn, setEffectiveOn] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  async function publish() {
    setBusy(true);
    try {
      const made = await callEndpoint(calls.publishAupVersion, { body: { title, bodyMd, effectiveOn } });
      showAlert(aupMessages.published(made.version), 'success');
      await client.invalidateQueries({ queryKey: ['admin', 'aup'] });
      onHide();
    } catch (e) {
      setErrors([e instanceof ApiError ? e.message : String(e)]);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal show onHide={onHide} size="lg" aria-labelledby={`${id}-title`} scrollable>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          {aupMessages.publish}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form
          id={`${id}-form`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy) void publish();
          }}
        >
          {errors.length > 0 && (
            <div className="alert alert-danger" role="alert">
              {errors.map((message) => (
                <div key={message}>{message}</div>
              ))}
            </div>
          )}
          <Form.Group className="mb-3" controlId={`${id}-name`}>
            <Form.Label>Title</Form.Label>
            <Form.Control value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} required />
          </Form.Group>
          <Form.Group className="mb-3" controlId={`${id}-body`}>
            <Form.Label>Policy text (Markdown)</Form.Label>
            <Form.Control
              as="textarea"
              rows={10}
              value={bodyMd}
              onChange={(e) => setBodyMd(e.target.value)}
              required
              aria-describedby={`${id}-body-help`}
            />
            <Form.Text id={`${id}-body-help`}>
              Headings (## Heading), lists (- item), **bold** and links; HTML is shown as text.
            </Form.Text>
          </Form.Group>
          <Form.Group className="mb-3" controlId={`${id}-effective`}>
            <Form.Label>Effective date</Form.Label>
            <Form.Control
              type="date"
              value={effectiveOn}
              onChange={(e) => setEffectiveOn(e.target.value)}
              required
            />
          </Form.Group>
        </Form>
        <h3 className="h6">{aupMessages.preview}</h3>
        <div className="policy-box" tabIndex={0} role="region" aria-label={aupMessages.preview}>
          {bodyMd.trim() ? (
            <PolicyMarkdown text={bodyMd} />
          ) : (
            <p className="text-body-secondary mb-0">Nothing yet.</p>
          )}
        </div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Cancel
        </Button>
        <Button type="submit" form={`${id}-form`} disabled={busy}>
          {aupMessages.publish}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
