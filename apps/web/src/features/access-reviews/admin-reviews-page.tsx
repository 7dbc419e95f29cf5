import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  csvLine,
  reviewMessages,
  type AdminCampaign,
  type ReviewDefaultActionName,
  type ReviewPreview,
} from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/access-reviews';
import { reviewsApi } from '@pra/contracts/paths';
import { ApiError, callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { ScrollTable } from '../../components/scroll-table';

const key = ['admin-reviews'] as const;

/** Administration → Reviews (GOVERNANCE.md §4.2): start a cycle after its preview; act on campaigns. */
export function AdminReviewsPage() {
  const client = useQueryClient();
  const [starting, setStarting] = useState(false);
  const [preview, setPreview] = useState<{
    title: string;
    preview: ReviewPreview;
    onConfirm?: () => void;
  } | null>(null);
  const [cancelling, setCancelling] = useState<AdminCampaign | null>(null);
  const { data } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => callEndpoint(calls.getAdminReviews, { signal }),
    meta: { alertOnError: true },
  });
  const refresh = () => client.invalidateQueries({ queryKey: key });
  async function act(campaign: AdminCampaign, action: 'remind' | 'close' | 'cancel', reason?: string) {
    try {
      await callEndpoint(calls.reviewCampaignActions[action], {
        params: { id: campaign.id },
        body: reason ? { reason } : {},
      });
      showAlert(
        action === 'remind'
          ? 'Reminders sent.'
          : action === 'close'
            ? 'The review was closed.'
            : 'The review was cancelled.',
        'success',
      );
      await refresh();
    } catch (e) {
      showAlert(e instanceof ApiError ? e.message : String(e));
    }
  }
  async function previewOf(campaign: AdminCampaign, then?: () => void) {
    const result = await callEndpoint(calls.previewReviewCycle, { params: { id: campaign.cycleId } });
    setPreview({
      title: then ? `Close ${campaign.organization} now?` : `Preview Default Action: ${campaign.cycle}`,
      preview: {
        organizations: result.organizations.filter((o) => o.organization === campaign.organization),
      },
      ...(then ? { onConfirm: then } : {}),
    });
  }
  return (
    <section aria-labelledby="admin-reviews-heading">
      <h2 id="admin-reviews-heading" className="h4">
        {reviewMessages.adminHeading}
      </h2>
      <Button className="mb-3" onClick={() => setStarting(true)}>
        {reviewMessages.startCycle}
      </Button>
      {data && data.organizationsWithoutBrm.length > 0 && (
        <Alert variant="warning" role="region" aria-labelledby="no-brm-heading">
          <h3 id="no-brm-heading" className="h6 fw-semibold">
            Organizations with no BRM
          </h3>
          <p className="mb-1">InfoSec reviews their vendors&rsquo; access until a BRM is assigned.</p>
          <ul className="mb-0">
            {data.organizationsWithoutBrm.map((o) => (
              <li key={o.id}>{o.name}</li>
            ))}
          </ul>
        </Alert>
      )}
      {data && data.campaigns.length === 0 && <p>No review cycles yet.</p>}
      {data && data.campaigns.length > 0 && (
        <ScrollTable label="Review campaigns">
          <table className="table table-sm align-middle">
            <caption className="visually-hidden">Review campaigns</caption>
            <thead>
              <tr>
                {['Organization', 'Status', 'Opens', 'Due', 'Decided %', 'Escalated', 'Actions'].map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.campaigns.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    {c.organization}
                    <span className="d-block small text-body-secondary">{c.cycle}</span>
                  </th>
                  <td>{c.status}</td>
                  <td>{c.opensOn}</td>
                  <td>{c.dueOn}</td>
                  <td>{c.decidedPercent}%</td>
                  <td>{c.escalated ? 'Yes' : 'No'}</td>
                  <td>
                    <div className="d-flex flex-wrap gap-1">
                      {c.status === 'open' && (
                        <>
                          <Button size="sm" variant="outline-primary" onClick={() => void act(c, 'remind')}>
                            Send Reminder Now
                          </Button>
                          <Button size="sm" variant="outline-primary" onClick={() => void previewOf(c)}>
                            Preview Default Action
                          </Button>
                          <Button
                            size="sm"
                            variant="outline-danger"
                            onClick={() => void previewOf(c, () => void act(c, 'close'))}
                          >
                            Close Now
                          </Button>
                        </>
                      )}
                      {(c.status === 'open' || c.status === 'scheduled') && (
                        <Button size="sm" variant="outline-secondary" onClick={() => setCancelling(c)}>
                          Cancel
                        </Button>
                      )}
                      {c.status === 'closed' && (
                        <>
                          <a
                            className="btn btn-sm btn-outline-primary"
                            href={reviewsApi.evidenceCsv.replace(':id', c.id)}
                            download
                          >
                            Download Evidence
                            <span className="visually-hidden"> for {c.organization} (CSV)</span>
                          </a>
                          <a
                            className="btn btn-sm btn-outline-secondary"
                            href={reviewsApi.evidenceJson.replace(':id', c.id)}
                            download
                          >
                            Manifest
                            <span className="visually-hidden"> for {c.organization} (JSON)</span>
                          </a>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      {starting && (
        <StartDialog
          onClose={() => setStarting(false)}
          onStarted={async () => {
            setStarting(false);
            await refresh();
          }}
        />
      )}
      {preview && (
        <Modal show onHide={() => setPreview(null)} aria-labelledby="preview-title" size="lg">
          <Modal.Header closeButton>
            <Modal.Title id="preview-title" as="h3" className="h5">
              {preview.title}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <PreviewTable preview={preview.preview} />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={() => setPreview(null)}>
              {preview.onConfirm ? 'Keep Open' : 'Done'}
            </Button>
            {preview.onConfirm && (
              <Button
                variant="danger"
                onClick={() => {
                  preview.onConfirm!();
                  setPreview(null);
                }}
              >
                Close Now
              </Button>
            )}
          </Modal.Footer>
        </Modal>
      )}
      {cancelling && (
        <CancelDialog
          campaign={cancelling}
          onClose={() => setCancelling(null)}
          onCancel={async (reason) => {
            await act(cancelling, 'cancel', reason);
            setCancelling(null);
          }}
        />
      )}
    </section>
  );
}

/** The preview's counts per organization, and "Download list" (the removals as CSV). */
function PreviewTable({ preview }: { preview: ReviewPreview }) {
  const csv =
    csvLine(['Organization', 'Username', 'Name', 'Email', 'Removed by default', 'Account disabled']) +
    preview.organizations
      .flatMap((o) =>
        o.removals.map((r) =>
          csvLine([
            o.organization,
            r.username,
            r.name,
            r.email,
            r.byDefault ? 'yes' : 'no',
            r.disablesAccount ? 'yes' : 'no',
          ]),
        ),
      )
      .join('');
  return (
    <>
      <ScrollTable label="Preview">
        <table className="table table-sm" aria-label="Preview">
          <thead>
            <tr>
              {[
                'Organization',
                'Items',
                'Already decided',
                'Would be removed if no one decides',
                'Accounts that would be disabled (no other access)',
                'Would be kept',
              ].map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.organizations.map((o) => (
              <tr key={o.organizationId}>
                <th scope="row">{o.organization}</th>
                <td>{o.items}</td>
                <td>{o.decided}</td>
                <td>{o.wouldBeRemoved}</td>
                <td>{o.wouldBeDisabled}</td>
                <td>{o.wouldBeKept}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <a
        className="btn btn-sm btn-outline-primary"
        href={`data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`}
        download="review-preview.csv"
      >
        Download list
      </a>
    </>
  );
}

function StartDialog({ onClose, onStarted }: { onClose: () => void; onStarted: () => Promise<void> }) {
  const now = new Date();
  const [name, setName] = useState(
    `${now.getFullYear()} Q${Math.floor(now.getMonth() / 3) + 1} vendor access review`,
  );
  const [orgs, setOrgs] = useState('');
  const [dueIn, setDueIn] = useState('14');
  const [defaultAction, setDefaultAction] = useState<ReviewDefaultActionName>('remove');
  const [confirm, setConfirm] = useState(true);
  const [preview, setPreview] = useState<ReviewPreview | null>(null);
  const [error, setError] = useState('');
  const { data: organizations } = useQuery({
    queryKey: ['admin-reviews', 'organizations'],
    queryFn: async ({ signal }) => {
      const [{ listOrganizations }, { organizationList }] = await Promise.all([
        import('@pra/contracts/endpoints/administration'),
        import('@pra/contracts/administration'),
      ]);
      return callEndpoint(listOrganizations, { signal }, organizationList);
    },
  });
  const chosen = orgs ? [orgs] : undefined;
  const body = (previewOnly: boolean) => ({
    name,
    ...(chosen ? { organizationIds: chosen } : {}),
    dueInDays: Number(dueIn),
    defaultAction,
    vendorConfirmation: confirm,
    previewOnly,
  });
  async function run(previewOnly: boolean) {
    setError('');
    try {
      const result = await callEndpoint(calls.startReviewCycle, { body: body(previewOnly) });
      if (previewOnly) setPreview(result.preview);
      else {
        showAlert('The review cycle has started.', 'success');
        await onStarted();
      }
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  }
  return (
    <Modal show onHide={onClose} aria-labelledby="start-title" size="lg">
      <Form
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          void run(false);
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title id="start-title" as="h3" className="h5">
            {reviewMessages.startCycle}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-2" controlId="cycle-name">
            <Form.Label>Name</Form.Label>
            <Form.Control value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
          </Form.Group>
          <Form.Group className="mb-2" controlId="cycle-orgs">
            <Form.Label>Organizations</Form.Label>
            <Form.Select value={orgs} onChange={(e) => setOrgs(e.target.value)}>
              <option value="">All</option>
              {organizations?.organizations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group className="mb-2" controlId="cycle-due">
            <Form.Label>Due in (days)</Form.Label>
            <Form.Control
              type="number"
              min={1}
              max={90}
              value={dueIn}
              onChange={(e) => setDueIn(e.target.value)}
            />
          </Form.Group>
          <Form.Group className="mb-2" controlId="cycle-default">
            <Form.Label>If no decision</Form.Label>
            <Form.Select
              value={defaultAction}
              onChange={(e) => setDefaultAction(e.target.value as ReviewDefaultActionName)}
            >
              <option value="remove">Remove access</option>
              <option value="keep">Keep access</option>
              <option value="recommendation">Follow recommendation</option>
            </Form.Select>
          </Form.Group>
          <Form.Check
            className="mb-2"
            id="cycle-confirm"
            label="Ask vendors to confirm"
            checked={confirm}
            onChange={(e) => setConfirm(e.target.checked)}
          />
          {error && (
            <Alert variant="danger" role="alert">
              {error}
            </Alert>
          )}
          {preview && <PreviewTable preview={preview} />}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="outline-primary" onClick={() => void run(true)}>
            {reviewMessages.preview}
          </Button>
          <Button type="submit" disabled={!preview}>
            {reviewMessages.startButton}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

function CancelDialog({
  campaign,
  onClose,
  onCancel,
}: {
  campaign: AdminCampaign;
  onClose: () => void;
  onCancel: (reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  return (
    <Modal show onHide={onClose} aria-labelledby="cancel-title">
      <Form
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          if (!reason.trim()) return setError(reviewMessages.cancelReasonRequired);
          void onCancel(reason.trim());
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title id="cancel-title" as="h3" className="h5">
            Cancel the review of {campaign.organization}?
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>Nothing is applied; access stays as it is.</p>
          <Form.Group controlId="cancel-reason">
            <Form.Label>Reason</Form.Label>
            <Form.Control
              maxLength={255}
              value={reason}
              isInvalid={!!error}
              onChange={(e) => setReason(e.target.value)}
            />
            <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Keep Open
          </Button>
          <Button type="submit" variant="danger">
            Cancel Review
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
