import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditEventView, AuditQuery } from '@pra/contracts';
import * as admin from '@pra/contracts/endpoints/administration';
import { auditExportUrl } from '../../api/administration';
import { callEndpoint } from '../../api/client';
import { useSearchParams } from '../../lib/routing/router';
import { adminKeys } from './use-admin-action';
import { AuditTableHead } from '../../components/audit-table-head';

type Filters = Required<Pick<AuditQuery, 'person' | 'actor' | 'target' | 'organization' | 'action'>> & {
  outcome: '' | 'success' | 'failure' | 'denied';
  from: string;
  to: string;
};

/** An ISO instant as a datetime-local value in the browser's zone ('' when it is not one). */
function localInputValue(iso: string | null): string {
  const at = iso ? new Date(iso) : null;
  if (!at || Number.isNaN(at.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  const minutes = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
  return at.getSeconds() === 0 ? minutes : `${minutes}:${two(at.getSeconds())}`;
}

/**
 * The filters a link gives in its query (`?action=grant.expire&from=…&to=…`, as the weekly
 * activity review links here): the page opens filtered.
 */
function filtersOf(search: URLSearchParams): Filters {
  const outcome = search.get('outcome');
  return {
    person: search.get('person') ?? '',
    actor: search.get('actor') ?? '',
    target: search.get('target') ?? '',
    organization: search.get('organization') ?? '',
    action: search.get('action') ?? '',
    outcome: outcome === 'success' || outcome === 'failure' || outcome === 'denied' ? outcome : '',
    from: localInputValue(search.get('from')),
    to: localInputValue(search.get('to')),
  };
}

/** The form's values as the API's query (times as ISO, empty fields left out). */
function toQuery(f: Filters): AuditQuery {
  const iso = (value: string) => (value ? new Date(value).toISOString() : undefined);
  return {
    person: f.person || undefined,
    actor: f.actor || undefined,
    target: f.target || undefined,
    organization: f.organization || undefined,
    action: f.action || undefined,
    outcome: f.outcome || undefined,
    from: iso(f.from),
    to: iso(f.to),
  };
}

/** Audit trail: filters, newest first, pages fetched by keyset, details per event, CSV download. */
export function AuditPage() {
  const [search] = useSearchParams();
  const [draft, setDraft] = useState(() => filtersOf(search));
  const [query, setQuery] = useState<AuditQuery>(() => toQuery(filtersOf(search)));
  const pages = useInfiniteQuery({
    queryKey: [...adminKeys.audit, query],
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(admin.getAuditPage, { query: { ...query, limit: 50, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    meta: { alertOnError: true },
  });
  const events = pages.data?.pages.flatMap((p) => p.events) ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(toQuery(draft));
  };
  const text = (key: keyof Filters, label: string, type = 'text') => (
    <Form.Group className="col-12 col-sm-6 col-lg-3" controlId={`audit-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      />
    </Form.Group>
  );
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading" className="h4">
        Audit trail
      </h2>
      <Form onSubmit={submit} className="row g-2 mb-3" aria-label="Audit filters">
        {text('person', 'Person (username or email)')}
        {text('actor', 'Actor')}
        {text('target', 'Target')}
        {text('organization', 'Organization')}
        {text('action', 'Action (starts with)')}
        <Form.Group className="col-12 col-sm-6 col-lg-3" controlId="audit-outcome">
          <Form.Label>Outcome</Form.Label>
          <Form.Select
            value={draft.outcome}
            onChange={(e) => setDraft({ ...draft, outcome: e.target.value as Filters['outcome'] })}
          >
            <option value="">Any</option>
            <option value="success">Success</option>
            <option value="failure">Failure</option>
            <option value="denied">Denied</option>
          </Form.Select>
        </Form.Group>
        {text('from', 'From', 'datetime-local')}
        {text('to', 'Until', 'datetime-local')}
        <div className="col-12 d-flex flex-wrap gap-2">
          <Button type="submit">Apply filters</Button>
          <a className="btn btn-outline-secondary" href={auditExportUrl(query)} download>
            Download CSV
          </a>
        </div>
      </Form>
      <Table responsive hover size="sm">
        <AuditTableHead />
        <tbody>
          {events.map((event) => (
            <AuditRow key={event.id} event={event} />
          ))}
        </tbody>
      </Table>
      {pages.isSuccess && events.length === 0 && <p>No event matches.</p>}
      {pages.hasNextPage && (
        <Button
          variant="outline-primary"
          onClick={() => void pages.fetchNextPage()}
          disabled={pages.isFetchingNextPage}
        >
          Show older events
        </Button>
      )}
    </section>
  );
}

function AuditRow({ event }: { event: AuditEventView }) {
  return (
    <tr>
      <td className="text-nowrap">{new Date(event.occurredAt).toLocaleString()}</td>
      <td>
        {event.action}
        {event.outcome === 'failure' && <span className="text-danger"> (failed)</span>}
        {event.outcome === 'denied' && <span className="text-danger"> (denied)</span>}
      </td>
      <td>{event.actor || '—'}</td>
      <td>{event.target || '—'}</td>
      <td>{event.organization ?? '—'}</td>
      <td>
        <details>
          <summary>Details</summary>
          <dl className="small mb-0">
            <dt>Client address</dt>
            <dd>{event.clientAddress || '—'}</dd>
            {Object.entries(event.details).map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd className="text-break">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
        </details>
      </td>
    </tr>
  );
}
