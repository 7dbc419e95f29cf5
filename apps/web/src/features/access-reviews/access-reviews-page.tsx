import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { reviewMessages, type BrmReviews, type ReviewDecision, type ReviewItem } from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/access-reviews';
import { ApiError, callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { ScrollTable } from '../../components/scroll-table';

const PAGE_SIZE = 10;

/** What the modal asks before a decision is saved: a reason (Remove), a date (Keep until…). */
interface Pending {
  items: ReviewItem[];
  decision: ReviewDecision;
}

/** Access Reviews (GOVERNANCE.md §4.2): a BRM keeps, keeps until a date, or removes each vendor's access. */
export function AccessReviewsPage() {
  const client = useQueryClient();
  const [campaignId, setCampaignId] = useState<string | undefined>();
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pending, setPending] = useState<Pending | null>(null);
  const debounced = useDebouncedValue(filter, 300);
  const key = ['access-reviews', campaignId, debounced, page] as const;
  const { data } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      callEndpoint(calls.getAccessReviews, {
        query: {
          ...(campaignId ? { campaignId } : {}),
          ...(debounced ? { filter: debounced } : {}),
          page,
          pageSize: PAGE_SIZE,
        },
        signal,
      }),
    meta: { alertOnError: true },
  });
  if (!data) return null;
  const campaign = data.campaigns.find((c) => c.id === campaignId) ?? data.campaigns[0];

  async function save(
    items: ReviewItem[],
    decision: ReviewDecision,
    extra: { reason?: string; keepUntil?: string },
  ) {
    try {
      const result = await callEndpoint(calls.decideAccessReviews, {
        body: { itemIds: items.map((i) => i.id), decision, ...extra },
      });
      showAlert(result.message, result.failed.length === 0 ? 'success' : 'danger');
      setSelected(new Set());
      setPending(null);
      await client.invalidateQueries({ queryKey: ['access-reviews'] });
      return null;
    } catch (e) {
      return e instanceof ApiError ? e.message : String(e);
    }
  }
  function choose(items: ReviewItem[], decision: ReviewDecision) {
    if (items.length === 0) return;
    if (decision === 'keep') void save(items, 'keep', {});
    else setPending({ items, decision });
  }

  return (
    <section aria-labelledby="reviews-heading">
      <h1 id="reviews-heading" className="page-title">
        {reviewMessages.heading}
      </h1>
      {!campaign ? (
        <p>{reviewMessages.empty}</p>
      ) : (
        <>
          <p className="lead">{reviewMessages.subtitle(campaign.dueOn)}</p>
          {data.campaigns.length > 1 && (
            <Form.Group className="mb-3" controlId="review-campaign" style={{ maxWidth: '28rem' }}>
              <Form.Label>Review</Form.Label>
              <Form.Select
                value={campaign.id}
                onChange={(e) => {
                  setCampaignId(e.target.value);
                  setPage(1);
                  setSelected(new Set());
                }}
              >
                {data.campaigns.map((c) => (
                  <option key={c.id} value={c.id}>
                    {reviewMessages.tab(c.organization, c.dueOn)}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          )}
          <h2 className="h5">{reviewMessages.tab(campaign.organization, campaign.dueOn)}</h2>
          <progress
            className="w-100"
            max={Math.max(1, campaign.total)}
            value={campaign.decided}
            aria-label={reviewMessages.progress(campaign.decided, campaign.total)}
          />
          <p className="small">{reviewMessages.progress(campaign.decided, campaign.total)}</p>
          {campaign.defaultAction === 'remove' && (
            <Alert variant="info">{reviewMessages.removeDefault(campaign.dueOn)}</Alert>
          )}
          <div className="d-flex flex-wrap gap-2 align-items-end mb-2">
            <Form.Group controlId="review-filter">
              <Form.Label>Filter</Form.Label>
              <Form.Control
                type="search"
                placeholder="Name, username or email"
                value={filter}
                onChange={(e) => {
                  setFilter(e.target.value);
                  setPage(1);
                }}
              />
            </Form.Group>
            <Button
              variant="success"
              disabled={selected.size === 0}
              onClick={() =>
                choose(
                  data.items.filter((i) => selected.has(i.id)),
                  'keep',
                )
              }
            >
              {reviewMessages.keepSelected}
            </Button>
            <Button
              variant="danger"
              disabled={selected.size === 0}
              onClick={() =>
                choose(
                  data.items.filter((i) => selected.has(i.id)),
                  'remove',
                )
              }
            >
              {reviewMessages.removeSelected}
            </Button>
          </div>
          <ReviewTable
            data={data}
            selected={selected}
            setSelected={setSelected}
            onDecide={(item, decision) => choose([item], decision)}
          />
          <nav aria-label="Review pages" className="d-flex gap-2 align-items-center">
            <Button
              variant="outline-secondary"
              size="sm"
              disabled={page <= 1}
              onClick={() => setPage(page - 1)}
            >
              Previous
            </Button>
            <span>
              Page {page} of {Math.max(1, Math.ceil(data.totalItems / PAGE_SIZE))}
            </span>
            <Button
              variant="outline-secondary"
              size="sm"
              disabled={page * PAGE_SIZE >= data.totalItems}
              onClick={() => setPage(page + 1)}
            >
              Next
            </Button>
          </nav>
        </>
      )}
      {pending && (
        <DecisionDialog
          pending={pending}
          onCancel={() => setPending(null)}
          onSave={(extra) => save(pending.items, pending.decision, extra)}
        />
      )}
    </section>
  );
}

function ReviewTable({
  data,
  selected,
  setSelected,
  onDecide,
}: {
  data: BrmReviews;
  selected: Set<string>;
  setSelected: (s: Set<string>) => void;
  onDecide: (item: ReviewItem, decision: ReviewDecision) => void;
}) {
  const all = data.items.length > 0 && data.items.every((i) => selected.has(i.id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  return (
    <ScrollTable label="Vendors to review">
      <table className="table table-sm align-middle">
        <caption className="visually-hidden">Vendors to review</caption>
        <thead>
          <tr>
            <th scope="col">
              <Form.Check
                aria-label="Select all on this page"
                checked={all}
                onChange={() => setSelected(all ? new Set() : new Set(data.items.map((i) => i.id)))}
              />
            </th>
            {[
              'Vendor',
              'Username',
              'Email',
              'Access since',
              'Access ends',
              'Last sign-in',
              'Sign-in method',
              'Vendor says',
              'Recommendation',
              'Decision',
            ].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.items.map((item) => (
            <tr key={item.id}>
              <td>
                <Form.Check
                  aria-label={`Select ${item.name}`}
                  checked={selected.has(item.id)}
                  onChange={() => toggle(item.id)}
                />
              </td>
              <th scope="row">{item.name}</th>
              <td>{item.username}</td>
              <td>{item.email}</td>
              <td>{item.accessSince}</td>
              <td>{item.accessEnds}</td>
              <td>{item.lastSignIn ?? 'Never'}</td>
              <td>{item.signInMethod}</td>
              <td title={item.vendorComment ?? undefined}>
                {item.vendorSays}
                {item.vendorComment && (
                  <span className="d-block small text-body-secondary">“{item.vendorComment}”</span>
                )}
              </td>
              <td>{item.recommendation}</td>
              <td>
                <Form.Select
                  size="sm"
                  style={{ minWidth: '9.5rem' }}
                  aria-label={`Decision for ${item.name}`}
                  value={item.decision ?? ''}
                  onChange={(e) => {
                    if (e.target.value) onDecide(item, e.target.value as ReviewDecision);
                  }}
                >
                  <option value="">Undecided</option>
                  <option value="keep">Keep</option>
                  <option value="keepUntil">Keep until…</option>
                  <option value="remove">Remove</option>
                </Form.Select>
                {item.decision === 'keepUntil' && item.keepUntil && (
                  <span className="small">until {item.keepUntil}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

function DecisionDialog({
  pending,
  onCancel,
  onSave,
}: {
  pending: Pending;
  onCancel: () => void;
  onSave: (extra: { reason?: string; keepUntil?: string }) => Promise<string | null>;
}) {
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [error, setError] = useState('');
  const remove = pending.decision === 'remove';
  const lastAccess = remove ? pending.items.filter((i) => i.otherAccess === 0) : [];
  const latest = pending.items.map((i) => i.accessEnds).sort()[0];
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (remove && !reason.trim()) return setError(reviewMessages.reasonRequired);
    if (!remove && !until) return setError(reviewMessages.keepUntilRequired);
    const failed = await onSave(remove ? { reason: reason.trim() } : { keepUntil: until });
    if (failed) setError(failed);
  }
  return (
    <Modal show onHide={onCancel} aria-labelledby="decision-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="decision-title" as="h2" className="h5">
            {remove
              ? `Remove access of ${pending.items.length === 1 ? pending.items[0]!.name : `${pending.items.length} vendors`}`
              : 'Keep access until…'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {lastAccess.map((i) => (
            <Alert key={i.id} variant="warning">
              {reviewMessages.lastAccess(i.name)}
            </Alert>
          ))}
          {remove ? (
            <Form.Group controlId="decision-reason">
              <Form.Label>{reviewMessages.reason}</Form.Label>
              <Form.Control
                autoFocus
                maxLength={255}
                value={reason}
                isInvalid={!!error}
                onChange={(e) => setReason(e.target.value)}
                aria-describedby="decision-error"
              />
            </Form.Group>
          ) : (
            <Form.Group controlId="decision-until">
              <Form.Label>Keep until</Form.Label>
              <Form.Control
                autoFocus
                type="date"
                max={latest}
                value={until}
                isInvalid={!!error}
                onChange={(e) => setUntil(e.target.value)}
                aria-describedby="decision-error"
              />
            </Form.Group>
          )}
          {error && (
            <div id="decision-error" className="text-danger mt-2" role="alert">
              {error}
            </div>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant={remove ? 'danger' : 'primary'}>
            {remove ? 'Remove' : 'Keep'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
