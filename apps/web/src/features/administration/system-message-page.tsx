import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQuery } from '@tanstack/react-query';
import type { AdminSystemMessage } from '@pra/contracts';
import * as admin from '@pra/contracts/endpoints/administration';
import { callEndpoint } from '../../api/client';
import { adminKeys, useAdminAction } from './use-admin-action';

/** A stored ISO time as a datetime-local value (local time, minutes), and back. */
const toLocal = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (value: string) => (value ? new Date(value).toISOString() : null);

/** System message: text, who sees it, an optional time window, with a preview. */
export function SystemMessagePage() {
  const { data } = useQuery({
    queryKey: adminKeys.systemMessage,
    queryFn: ({ signal }) => callEndpoint(admin.getAdminSystemMessage, { signal }),
    meta: { alertOnError: true },
  });
  // Keyed by the saved message: a save (or another admin's) starts the form from what is stored.
  return data ? <SystemMessageForm key={JSON.stringify(data)} initial={data} /> : null;
}

function SystemMessageForm({ initial }: { initial: AdminSystemMessage }) {
  const [message, setMessage] = useState(initial);
  const save = useAdminAction((body: AdminSystemMessage) => callEndpoint(admin.saveSystemMessage, { body }), {
    success: (m) => (m.enabled ? 'System message saved.' : 'System message turned off.'),
    refresh: [adminKeys.systemMessage, ['system-message']],
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(message);
  };
  return (
    <section aria-labelledby="message-heading">
      <h2 id="message-heading" className="h4">
        System message
      </h2>
      <Form onSubmit={submit} className="row g-2">
        <div className="col-12">
          <Form.Check
            type="switch"
            id="message-enabled"
            label="Show the message"
            checked={message.enabled}
            onChange={(e) => setMessage({ ...message, enabled: e.target.checked })}
          />
          <Form.Check
            id="message-logged-in-only"
            label="Only to signed-in people"
            checked={message.loggedInOnly}
            onChange={(e) => setMessage({ ...message, loggedInOnly: e.target.checked })}
          />
        </div>
        <Form.Group className="col-12 col-md-4" controlId="message-severity">
          <Form.Label>Kind</Form.Label>
          <Form.Select
            value={message.severity}
            onChange={(e) =>
              setMessage({ ...message, severity: e.target.value as AdminSystemMessage['severity'] })
            }
          >
            <option value="info">Information</option>
            <option value="success">Good news</option>
            <option value="warning">Warning</option>
            <option value="danger">Problem</option>
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-12 col-md-8" controlId="message-title">
          <Form.Label>Title</Form.Label>
          <Form.Control
            value={message.title}
            maxLength={200}
            onChange={(e) => setMessage({ ...message, title: e.target.value })}
          />
        </Form.Group>
        <Form.Group className="col-12" controlId="message-text">
          <Form.Label>Text</Form.Label>
          <Form.Control
            as="textarea"
            rows={3}
            maxLength={2000}
            value={message.text}
            onChange={(e) => setMessage({ ...message, text: e.target.value })}
          />
        </Form.Group>
        <Form.Group className="col-12 col-md-6" controlId="message-starts">
          <Form.Label>Show from (optional)</Form.Label>
          <Form.Control
            type="datetime-local"
            value={toLocal(message.startsAt)}
            onChange={(e) => setMessage({ ...message, startsAt: fromLocal(e.target.value) })}
          />
        </Form.Group>
        <Form.Group className="col-12 col-md-6" controlId="message-ends">
          <Form.Label>Show until (optional)</Form.Label>
          <Form.Control
            type="datetime-local"
            value={toLocal(message.endsAt)}
            onChange={(e) => setMessage({ ...message, endsAt: fromLocal(e.target.value) })}
          />
        </Form.Group>
        <div className="col-12">
          <h3 className="h6 mt-2">Preview</h3>
          {message.enabled && (message.title || message.text) ? (
            <Alert variant={message.severity} className="mb-2" data-testid="message-preview">
              {message.title && (
                <Alert.Heading as="p" className="h6">
                  {message.title}
                </Alert.Heading>
              )}
              {message.text}
            </Alert>
          ) : (
            <p className="text-body-secondary">No message is shown.</p>
          )}
          <Button type="submit" disabled={save.isPending}>
            Save
          </Button>
        </div>
      </Form>
    </section>
  );
}
