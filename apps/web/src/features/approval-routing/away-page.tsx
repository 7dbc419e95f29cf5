import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { INFOSEC_DELEGATE, routingMessages, type DelegationState } from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/approval-routing';
import { ApiError, callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';

const key = ['approval-routing', 'delegation'] as const;

/** Away and Backup (GOVERNANCE.md §5.2): a BRM sends their approvals to a backup for a period. */
export function AwayPage() {
  const { data } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => callEndpoint(calls.getDelegation, { signal }),
    meta: { alertOnError: true },
  });
  if (!data) return null;
  return <AwayForm state={data} />;
}

function AwayForm({ state }: { state: DelegationState }) {
  const client = useQueryClient();
  const current = state.delegation;
  const [delegate, setDelegate] = useState(current?.delegate ?? '');
  const [from, setFrom] = useState(current?.from ?? state.today);
  const [until, setUntil] = useState(current?.until ?? state.today);
  const [reason, setReason] = useState(current?.reason ?? '');
  const [movePending, setMovePending] = useState(current?.movePending ?? true);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    setError('');
    try {
      await action();
      showAlert(done, 'success');
      await client.invalidateQueries({ queryKey: key });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }
  function save(event: FormEvent) {
    event.preventDefault();
    if (!delegate) {
      setError(routingMessages.notSharing);
      return;
    }
    void run(
      () => callEndpoint(calls.setDelegation, { body: { delegate, from, until, reason, movePending } }),
      routingMessages.saved,
    );
  }

  return (
    <section aria-labelledby="away-heading" className="container py-3">
      <h1 id="away-heading" className="h3">
        {routingMessages.heading}
      </h1>
      {current && (
        <p role="status">
          {current.status === 'active'
            ? routingMessages.status(current.delegateName, current.until)
            : routingMessages.scheduled(current.delegateName, current.from, current.until)}
        </p>
      )}
      <Form onSubmit={save} noValidate style={{ maxWidth: '36rem' }}>
        <Form.Group className="mb-3" controlId="away-delegate">
          <Form.Label>{routingMessages.intro}</Form.Label>
          <Form.Select
            value={delegate}
            onChange={(e) => setDelegate(e.target.value)}
            isInvalid={error === routingMessages.notSharing || error === routingMessages.self}
          >
            <option value="">Choose…</option>
            {state.choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value={INFOSEC_DELEGATE}>{routingMessages.infosec}</option>
          </Form.Select>
        </Form.Group>
        <div className="d-flex flex-wrap gap-3 mb-3">
          <Form.Group controlId="away-from">
            <Form.Label>{routingMessages.from}</Form.Label>
            <Form.Control
              type="date"
              value={from}
              min={state.today}
              onChange={(e) => setFrom(e.target.value)}
            />
          </Form.Group>
          <Form.Group controlId="away-until">
            <Form.Label>{routingMessages.until}</Form.Label>
            <Form.Control type="date" value={until} min={from} onChange={(e) => setUntil(e.target.value)} />
          </Form.Group>
        </div>
        <Form.Group className="mb-3" controlId="away-reason">
          <Form.Label>{routingMessages.reason}</Form.Label>
          <Form.Control value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
        </Form.Group>
        <Form.Check
          className="mb-3"
          id="away-move-pending"
          label={routingMessages.movePending}
          checked={movePending}
          onChange={(e) => setMovePending(e.target.checked)}
        />
        {error && (
          <div className="alert alert-danger" role="alert">
            {error}
          </div>
        )}
        <div className="d-flex gap-2">
          <Button type="submit" disabled={busy}>
            {routingMessages.save}
          </Button>
          {current && (
            <Button
              variant="outline-danger"
              disabled={busy}
              onClick={() => void run(() => callEndpoint(calls.endDelegation), routingMessages.ended)}
            >
              {routingMessages.endNow}
            </Button>
          )}
        </div>
      </Form>
    </section>
  );
}
