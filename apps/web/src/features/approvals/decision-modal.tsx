import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Decision, PendingApproval } from '@pra/contracts';
import { commentText, fieldError } from '@pra/contracts/text-fields';
import { approvalPersonName } from './approval-person';
import { decisionLabel } from './decision-labels';

interface DecisionModalProps {
  show: boolean;
  /** The decision being confirmed (kept while the dialog fades out). */
  decision: Decision | undefined;
  item: PendingApproval | undefined;
  isSubmitting: boolean;
  /** The comment, and for an approval that grants access the "Access ends on" date. */
  onConfirm: (comment: string, accessEndsOn: string | undefined) => void;
  onCancel: () => void;
}

/** Confirms an approval or rejection; a rejection needs a non-empty justification. */
export function DecisionModal({
  show,
  decision,
  item,
  isSubmitting,
  onConfirm,
  onCancel,
}: DecisionModalProps) {
  const titleId = useId();
  const [comment, setComment] = useState('');
  const [endsOn, setEndsOn] = useState<string>();
  const isReject = decision === 'DENY';
  const label = decisionLabel(item?.type, decision);
  const isRequest = !item?.emergency && !item?.departure;
  // GOVERNANCE.md §3.2: approving New Account, Add Access or Extend Access sets when access ends.
  const terms = !isReject ? (item?.accessEnds ?? null) : null;
  const accessEndsOn = terms ? (endsOn ?? terms.defaultDate) : undefined;
  const endsError =
    terms && (!accessEndsOn || accessEndsOn > terms.maxDate)
      ? `The end date must be in the future and no later than ${terms.maxDate}`
      : undefined;
  // The server's own field rule (length, no line breaks or invisible characters), shown as typed.
  const commentError = fieldError(commentText, comment);
  const canConfirm =
    !isSubmitting && !commentError && !endsError && (!label.commentRequired || comment.trim().length > 0);
  const who = item ? approvalPersonName(item) : '';

  return (
    <Modal
      show={show}
      onHide={onCancel}
      onExited={() => {
        setComment('');
        setEndsOn(undefined);
      }}
      aria-labelledby={titleId}
    >
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          if (canConfirm) onConfirm(comment.trim(), accessEndsOn);
        }}
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId} as="h2" className="h5">
            {label.title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {isRequest ? (
            <p>
              {label.action} the {item?.type ?? ''} request for <strong>{who}</strong> ({item?.org})?
            </p>
          ) : (
            <p>
              {label.action}: {item?.type} for <strong>{who}</strong> ({item?.org})?
            </p>
          )}
          {terms && (
            <Form.Group className="mb-3" controlId={`${titleId}-ends`}>
              <Form.Label>Access ends on</Form.Label>
              <Form.Control
                type="date"
                value={accessEndsOn}
                max={terms.maxDate}
                required
                isInvalid={!!endsError}
                aria-invalid={!!endsError}
                aria-describedby={`${titleId}-ends-hint${endsError ? ` ${titleId}-ends-error` : ''}`}
                onChange={(event) => setEndsOn(event.target.value)}
              />
              <Form.Control.Feedback type="invalid" id={`${titleId}-ends-error`}>
                {endsError}
              </Form.Control.Feedback>
              <Form.Text id={`${titleId}-ends-hint`}>
                Policy for {item?.org}: up to {terms.accessDays} days (no later than {terms.maxDate})
              </Form.Text>
            </Form.Group>
          )}
          <Form.Group controlId={`${titleId}-comment`}>
            <Form.Label>{label.commentLabel}</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              value={comment}
              required={label.commentRequired}
              isInvalid={!!commentError}
              aria-invalid={!!commentError}
              aria-describedby={commentError ? `${titleId}-comment-error` : undefined}
              onChange={(event) => setComment(event.target.value)}
            />
            <Form.Control.Feedback type="invalid" id={`${titleId}-comment-error`}>
              {commentError}
            </Form.Control.Feedback>
            {isReject && isRequest && <Form.Text>A justification is required to reject a request.</Form.Text>}
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant={isReject ? 'danger' : 'success'} disabled={!canConfirm}>
            {label.action}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
