import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { CurrentRole } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { ReasonField, reasonError } from './reason-field';
import { useCurrentAccess, useRemoveRole, type AccessSubject } from './use-access';

interface CurrentAccessModalProps {
  subject: AccessSubject;
  show: boolean;
  onClose: () => void;
}

/** Current Access: the roles held; each may be removed with a reason. */
export function CurrentAccessModal({ subject, show, onClose }: CurrentAccessModalProps) {
  const titleId = useId();
  const current = useCurrentAccess(subject.username);
  const [removing, setRemoving] = useState<CurrentRole>();
  const [reason, setReason] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const reset = () => {
    setRemoving(undefined);
    setReason('');
    setIsTouched(false);
  };
  const remove = useRemoveRole(subject, reset);
  const canSubmit = Boolean(removing) && !reasonError(reason) && !remove.isPending;

  return (
    <Modal show={show} onHide={onClose} onExited={reset} aria-labelledby={titleId} centered>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5">
          Current Access
        </Modal.Title>
      </Modal.Header>
      {removing ? (
        <Form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setIsTouched(true);
            if (canSubmit) remove.mutate({ role: removing, reason: reason.trim() });
          }}
        >
          <Modal.Body>
            <p>
              Remove access to <strong>{removing.display}</strong>
              {subject.isManager ? ` for ${subject.username}` : ''}?
              {subject.isManager ? '' : ' Your request goes to the organization’s BRMs for approval.'}
            </p>
            <ReasonField label="Reason" value={reason} onChange={setReason} isTouched={isTouched} />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={reset}>
              Back
            </Button>
            <Button type="submit" variant="danger" disabled={remove.isPending}>
              Remove Role
            </Button>
          </Modal.Footer>
        </Form>
      ) : (
        <>
          <Modal.Body>
            {current.isPending ? (
              <p role="status">
                <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
                Loading current access…
              </p>
            ) : (current.data ?? []).length === 0 ? (
              <p>{accessMessages.noCurrent}</p>
            ) : (
              <ListGroup>
                {(current.data ?? []).map((role) => (
                  <ListGroup.Item
                    key={role.name}
                    className="d-flex align-items-center justify-content-between gap-2"
                  >
                    <span>{role.display}</span>
                    <Button
                      variant="outline-danger"
                      size="sm"
                      aria-label={`Remove ${role.display}`}
                      onClick={() => setRemoving(role)}
                    >
                      Remove
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
