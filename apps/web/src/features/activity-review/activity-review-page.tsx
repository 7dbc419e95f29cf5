import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  activityReviewMessages as text,
  type ActivityReviewDetail,
  type ActivityReviewSummary,
  type ActivitySection,
} from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/activity-review';
import { adminRoutes } from '@pra/contracts/paths';
import { ApiError, callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { Link, useSearchParams } from '../../lib/routing/router';
import { useCurrentUser } from '../../lib/use-current-user';
import { AuditTableHead } from '../../components/audit-table-head';

const keys = {
  all: ['admin', 'reports', 'activity'] as const,
  week: (week: string) => ['admin', 'reports', 'activity', week] as const,
};

const weekPath = (monday: string) => `${adminRoutes.reportActivity}?week=${monday}`;

/**
 * Administration → Reports → Activity Review (GOVERNANCE.md §9.2): the weekly digests, and one
 * week's counts and lists with links into the audit trail; Mark Reviewed with a required note
 * (auditors read only).
 */
export function ActivityReviewPage() {
  const [params] = useSearchParams();
  const week = params.get('week');
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading" className="h4">
        {text.heading}
      </h2>
      {week ? <WeekDigest key={week} week={week} /> : <WeekList />}
    </section>
  );
}

function Loading({ what }: { what: string }) {
  return (
    <p role="status">
      <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
      Loading {what}…
    </p>
  );
}

function ReviewState({ review }: { review: ActivityReviewSummary }) {
  return review.reviewed ? (
    <>{text.reviewed(review.reviewed.name, review.reviewed.on)}</>
  ) : (
    <span className="text-body-secondary">{text.notReviewed}</span>
  );
}

function WeekList() {
  const list = useQuery({
    queryKey: keys.all,
    queryFn: ({ signal }) => callEndpoint(calls.listActivityReviews, { signal }),
    meta: { alertOnError: true },
  });
  const reviews = list.data?.reviews ?? [];
  return (
    <>
      <p>{text.intro}</p>
      {list.isPending ? (
        <Loading what="the weekly digests" />
      ) : reviews.length === 0 ? (
        <p role="status">{text.empty}</p>
      ) : (
        <Table responsive striped className="align-middle">
          <caption className="visually-hidden">Weekly digests, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col">Events</th>
              <th scope="col">Review</th>
            </tr>
          </thead>
          <tbody>
            {reviews.map((r) => (
              <tr key={r.periodStart}>
                <td>
                  <Link to={weekPath(r.periodStart)}>{r.period}</Link>
                </td>
                <td>{r.total}</td>
                <td>
                  <ReviewState review={r} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

function WeekDigest({ week }: { week: string }) {
  const review = useQuery({
    queryKey: keys.week(week),
    queryFn: ({ signal }) => callEndpoint(calls.getActivityReview, { params: { week }, signal }),
    meta: { alertOnError: true },
  });
  const readOnly = useCurrentUser().data?.isAuditor === true;
  const data = review.data;
  return (
    <>
      <p>
        <Link to={adminRoutes.reportActivity}>All weeks</Link>
      </p>
      {review.isPending ? (
        <Loading what="the digest" />
      ) : !data ? (
        <p role="status">{text.notFound}</p>
      ) : (
        <>
          <h3 className="h5">Week {data.period}</h3>
          <p className="small text-body-secondary">
            Generated {new Date(data.generatedAt).toLocaleString('en-US', { timeZone: data.digest.zone })} (
            {data.digest.zone}) from the audit trail; events recorded later do not change it.
          </p>
          {data.reviewed ? (
            <Alert variant="success">
              <p className="mb-1 fw-semibold">{text.reviewed(data.reviewed.name, data.reviewed.on)}</p>
              <p className="mb-0 text-break" style={{ whiteSpace: 'pre-line' }}>
                {data.reviewed.note}
              </p>
            </Alert>
          ) : readOnly ? (
            <p role="status">{text.notReviewed}</p>
          ) : (
            <SignOffForm review={data} />
          )}
          <Counts sections={data.digest.sections} />
          {data.digest.sections
            .filter((s) => s.count > 0)
            .map((s) => (
              <SectionDetail key={s.key} section={s} zone={data.digest.zone} />
            ))}
        </>
      )}
    </>
  );
}

function SignOffForm({ review }: { review: ActivityReviewDetail }) {
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!note.trim()) return setError(text.noteRequired);
    setError('');
    setBusy(true);
    try {
      await callEndpoint(calls.signOffActivityReview, {
        params: { week: review.periodStart },
        body: { note: note.trim() },
      });
      showAlert(text.marked(review.period), 'success');
    } catch (failure) {
      const message = failure instanceof ApiError ? failure.message : UNKNOWN_ERROR;
      if (failure instanceof ApiError && failure.status === 400) setError(message);
      else showAlert(message);
    } finally {
      setBusy(false);
      await client.invalidateQueries({ queryKey: keys.all });
    }
  };
  return (
    <Form noValidate onSubmit={(e) => void submit(e)} className="mb-4" aria-label="Mark this week reviewed">
      <Form.Group controlId="activity-note" className="mb-2">
        <Form.Label>{text.note}</Form.Label>
        <Form.Control
          as="textarea"
          rows={3}
          maxLength={2000}
          value={note}
          isInvalid={!!error}
          aria-describedby="activity-note-help"
          onChange={(e) => setNote(e.target.value)}
        />
        <Form.Text id="activity-note-help">What you reviewed and what you found or followed up.</Form.Text>
        <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
      </Form.Group>
      <Button type="submit" disabled={busy}>
        {text.markReviewed}
      </Button>
    </Form>
  );
}

function Counts({ sections }: { sections: ActivitySection[] }) {
  return (
    <Table responsive size="sm" className="align-middle mb-4">
      <caption className="caption-top">Counts for the week</caption>
      <thead>
        <tr>
          <th scope="col">Activity</th>
          <th scope="col">Count</th>
          <th scope="col">In the audit trail</th>
        </tr>
      </thead>
      <tbody>
        {sections.map((s) => (
          <tr key={s.key}>
            <th scope="row" className="fw-normal">
              {s.count > 0 ? <a href={`#activity-${s.key}`}>{s.title}</a> : s.title}
            </th>
            <td>{s.count}</td>
            <td>
              {s.actions.length === 0
                ? '—'
                : s.actions.map((a, i) => (
                    <span key={a.action}>
                      {i > 0 && ' · '}
                      <Link to={a.link}>
                        {a.action} ({a.count})
                      </Link>
                    </span>
                  ))}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function SectionDetail({ section, zone }: { section: ActivitySection; zone: string }) {
  const id = `activity-${section.key}`;
  const time = (at: string) =>
    new Date(at).toLocaleString('en-US', { timeZone: zone, dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <section aria-labelledby={id} className="mb-4">
      <h3 id={id} className="h6">
        {section.title} ({section.count})
      </h3>
      {section.repeatedDismissals && section.repeatedDismissals.length > 0 && (
        <Alert variant="warning">
          <p className="mb-1 fw-semibold">Reporters with several reports dismissed this week</p>
          <ul className="mb-0">
            {section.repeatedDismissals.map((r) => (
              <li key={r.reporter}>
                <Link to={r.link}>{r.reporter}</Link>: {r.dismissed} dismissed
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {section.perVendor && (
        <>
          <Table responsive size="sm" striped className="align-middle">
            <caption className="visually-hidden">Failed sign-ins and lockouts per vendor</caption>
            <thead>
              <tr>
                <th scope="col">Vendor</th>
                <th scope="col">Failed sign-ins</th>
                <th scope="col">Lockouts</th>
              </tr>
            </thead>
            <tbody>
              {section.perVendor.map((v) => (
                <tr key={v.username}>
                  <td>
                    <Link to={v.link}>{v.username}</Link>
                  </td>
                  <td>{v.failures}</td>
                  <td>{v.lockouts}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!!section.unknownUsernames && (
            <p className="small">
              Failed sign-ins for usernames that match no account: {section.unknownUsernames}
            </p>
          )}
        </>
      )}
      {section.events.length > 0 && (
        <Table responsive size="sm" striped className="align-middle">
          <caption className="visually-hidden">{section.title}</caption>
          <AuditTableHead />
          <tbody>
            {section.events.map((e) => (
              <tr key={e.id}>
                <td className="text-nowrap">{time(e.at)}</td>
                <td>{e.action}</td>
                <td>{e.actor || '—'}</td>
                <td>{e.target || '—'}</td>
                <td>{e.organization ?? '—'}</td>
                <td className="small text-break">{e.detail || '—'}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {section.more > 0 && (
        <p className="small">
          {section.more} more: see{' '}
          {section.actions.map((a, i) => (
            <span key={a.action}>
              {i > 0 && ', '}
              <Link to={a.link}>{a.action}</Link>
            </span>
          ))}{' '}
          in the audit trail.
        </p>
      )}
    </section>
  );
}
