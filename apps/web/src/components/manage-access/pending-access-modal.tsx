import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { PendingAccessRequest } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { ReasonField, reasonError } from './reason-field';
import { useCancelPending, usePendingAccess, type AccessSubject } from './use-access';

interface PendingAccessModalProps {
  subject: AccessSubject;
  show: boolean;
  onClose: () => void;
}

/** What a pending request asks, e.g. 'Add Acme Imaging, Remove Globex Health IT'. */
function describe(request: PendingAccessRequest): string {
  return request.items.map((item) => `${item.operation} ${item.display}`).join(', ');
}

/** Pending Access Requests: each may be cancelled with a reason. */
export function PendingAccessModal({ subject, show, onClose }: PendingAccessModalProps) {
  const titleId = useId();
  const pending = usePendingAccess(subject.username);
  const [cancelling, setCancelling] = useState<PendingAccessRequest>();
  const [reason, setReason] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const reset = () => {
    setCancelling(undefined);
    setReason('');
    setIsTouched(false);
  };
  const cancel = useCancelPending(subject, reset);
  const canSubmit = Boolean(cancelling) && !reasonError(reason) && !cancel.isPending;

  return (
    <Modal show={show} onHide={onClose} onExited={reset} aria-labelledby={titleId} centered>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5">
          Pending Access Requests
        </Modal.Title>
      </Modal.Header>
      {cancelling ? (
        <Form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setIsTouched(true);
            if (canSubmit) cancel.mutate({ requestId: cancelling.id, reason: reason.trim() });
          }}
        >
          <Modal.Body>
            <p>
              Cancel the request <strong>{describe(cancelling)}</strong>?
            </p>
            <ReasonField label="Reason" value={reason} onChange={setReason} isTouched={isTouched} />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={reset}>
              Back
            </Button>
            <Button type="submit" variant="danger" disabled={cancel.isPending}>
              Cancel Request
            </Button>
          </Modal.Footer>
        </Form>
      ) : (
        <>
          <Modal.Body>
            {pending.isPending ? (
              <p role="status">
                <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
                Loading pending requests…
              </p>
            ) : (pending.data ?? []).length === 0 ? (
              <p>{accessMessages.noPending}</p>
            ) : (
              <ListGroup>
                {(pending.data ?? []).map((request) => (
                  <ListGroup.Item
                    key={request.id}
                    className="d-flex align-items-center justify-content-between gap-2"
                  >
                    <ul className="list-unstyled mb-0">
                      {request.items.map((item) => (
                        <li key={`${item.operation}-${item.display}`}>
                          <span className="badge text-bg-secondary me-2">{item.operation}</span>
                          {item.display}
                          <span className="text-body-secondary small"> — requested by {item.owner}</span>
                        </li>
                      ))}
                    </ul>
                    <Button
                      variant="outline-danger"
                      size="sm"
                      className="text-nowrap"
                      aria-label={`Cancel request ${describe(request)}`}
                      onClick={() => setCancelling(request)}
                    >
                      Cancel
                    </Button>
                  </ListGroup.Item>
                ))}
              </ListGroup>
            )}
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </Modal.Footer>
        </>
      )}
    </Modal>
  );
}
