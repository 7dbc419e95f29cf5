import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { CurrentRole } from '@pra/contracts';
import { accessExpiryMessages, extendAccessBody } from '@pra/contracts/access-expiry';
import { fieldError } from '@pra/contracts/text-fields';
import { addDays, todayOf } from './access-dates';
import { useExtendRole, useSetRoleEnd, type AccessSubject } from './use-access';

interface EndDateDialogProps {
  subject: AccessSubject;
  /** The role whose end is asked for (a vendor) or changed (a BRM or admin); kept while fading out. */
  role: CurrentRole | undefined;
  show: boolean;
  onClose: () => void;
}

const justificationRule = extendAccessBody.shape.justification;

/**
 * GOVERNANCE.md §3.2: a vendor's "Request extension" dialog (a new end date within the policy and
 * a justification, sent to the sponsor), or a manager's "Change end date" dialog (set at once,
 * within the policy). The dates come from the server (current end, today's default and latest
 * end), so the browser's clock never decides them.
 */
export function EndDateDialog({ subject, role, show, onClose }: EndDateDialogProps) {
  const id = useId();
  const isManager = subject.isManager;
  const currentEnd = role?.endsOn ?? '';
  const maxDate = role?.maxEndsOn ?? '';
  const today = role ? todayOf(role) : '';
  const [date, setDate] = useState<string>();
  const [justification, setJustification] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const reset = () => {
    setDate(undefined);
    setJustification('');
    setIsTouched(false);
  };
  const extend = useExtendRole(subject, onClose);
  const change = useSetRoleEnd(subject, onClose);
  const isSubmitting = extend.isPending || change.isPending;
  // The default: for a vendor today + the tier's duration (the server's), for a manager the current end.
  const value = date ?? (isManager ? currentEnd : (role?.defaultEndsOn ?? ''));
  const dateError = !value
    ? 'Enter a date'
    : isManager
      ? value < today || value > maxDate
        ? `The end date must be in the future and no later than ${maxDate}`
        : undefined
      : value <= currentEnd || value > maxDate
        ? accessExpiryMessages.extensionDate(currentEnd, maxDate)
        : undefined;
  const justificationError = isManager ? undefined : fieldError(justificationRule, justification);
  const shownJustificationError =
    justificationError && (isTouched || justification.length > 0) ? justificationError : undefined;
  const shownDateError = dateError && (isTouched || date !== undefined) ? dateError : undefined;
  const title = isManager
    ? `Change end date for ${role?.display ?? ''}`
    : `Request extension for ${role?.display ?? ''}`;

  return (
    <Modal show={show} onHide={onClose} onExited={reset} aria-labelledby={`${id}-title`} centered>
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setIsTouched(true);
          if (!role || dateError || justificationError || isSubmitting) return;
          if (isManager) change.mutate({ role, accessEndsOn: value });
          else extend.mutate({ role, requestedUntil: value, justification: justification.trim() });
        }}
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>Current end: {currentEnd}</p>
          <Form.Group className="mb-3" controlId={`${id}-date`}>
            <Form.Label>New end date</Form.Label>
            <Form.Control
              type="date"
              value={value}
              min={isManager ? today : addDays(currentEnd, 1)}
              max={maxDate}
              required
              isInvalid={Boolean(shownDateError)}
              aria-invalid={Boolean(shownDateError)}
              aria-describedby={`${id}-date-help${shownDateError ? ` ${id}-date-error` : ''}`}
              onChange={(event) => setDate(event.target.value)}
            />
            <Form.Control.Feedback type="invalid" id={`${id}-date-error`}>
              {shownDateError}
            </Form.Control.Feedback>
            <Form.Text id={`${id}-date-help`}>No later than {maxDate}</Form.Text>
          </Form.Group>
          {!isManager && (
            <Form.Group className="mb-3" controlId={`${id}-justification`}>
              <Form.Label>Justification</Form.Label>
              <Form.Control
                as="textarea"
                rows={2}
                value={justification}
                required
                maxLength={255}
                isInvalid={Boolean(shownJustificationError)}
                aria-invalid={Boolean(shownJustificationError)}
                aria-describedby={shownJustificationError ? `${id}-justification-error` : undefined}
                onChange={(event) => setJustification(event.target.value)}
              />
              <Form.Control.Feedback type="invalid" id={`${id}-justification-error`}>
                {shownJustificationError}
              </Form.Control.Feedback>
            </Form.Group>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={isSubmitting}>
            {isManager ? 'Change End Date' : 'Request Extension'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
