import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Decision, PendingApproval } from '@pra/contracts';
import { commentText, fieldError } from '@pra/contracts/text-fields';
import { approvalPersonName } from './approval-person';

interface DecisionModalProps {
  show: boolean;
  /** The decision being confirmed (kept while the dialog fades out). */
  decision: Decision | undefined;
  item: PendingApproval | undefined;
  isSubmitting: boolean;
  onConfirm: (comment: string) => void;
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
  const isReject = decision === 'DENY';
  // The server's own field rule (length, no line breaks or invisible characters), shown as typed.
  const commentError = fieldError(commentText, comment);
  const canConfirm = !isSubmitting && !commentError && (!isReject || comment.trim().length > 0);
  const who = item ? approvalPersonName(item) : '';

  return (
    <Modal show={show} onHide={onCancel} onExited={() => setComment('')} aria-labelledby={titleId}>
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          if (canConfirm) onConfirm(comment.trim());
        }}
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId} as="h2" className="h5">
            {isReject ? 'Reject Request' : 'Approve Request'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            {isReject ? 'Reject' : 'Approve'} the {item?.type ?? ''} request for <strong>{who}</strong> (
            {item?.org})?
          </p>
          <Form.Group controlId={`${titleId}-comment`}>
            <Form.Label>{isReject ? 'Justification' : 'Comment (optional)'}</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              value={comment}
              required={isReject}
              isInvalid={!!commentError}
              aria-invalid={!!commentError}
              aria-describedby={commentError ? `${titleId}-comment-error` : undefined}
              onChange={(event) => setComment(event.target.value)}
            />
            <Form.Control.Feedback type="invalid" id={`${titleId}-comment-error`}>
              {commentError}
            </Form.Control.Feedback>
            {isReject && <Form.Text>A justification is required to reject a request.</Form.Text>}
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant={isReject ? 'danger' : 'success'} disabled={!canConfirm}>
            {isReject ? 'Reject' : 'Approve'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
