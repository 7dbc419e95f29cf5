import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { ReasonField, reasonError } from './reason-field';

/** The item chosen in a list modal and the reason typed for acting on it. */
export function useReasonChoice<T>() {
  const [chosen, choose] = useState<T>();
  const [reason, setReason] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const reset = () => {
    choose(undefined);
    setReason('');
    setIsTouched(false);
  };
  return { chosen, choose, reason, setReason, isTouched, setIsTouched, reset };
}

interface ReasonListModalProps<T> {
  title: string;
  show: boolean;
  onClose: () => void;
  choice: ReturnType<typeof useReasonChoice<T>>;
  list: { isPending: boolean; data?: T[] };
  loadingText: string;
  emptyText: string;
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** The item's button ('Remove', 'Cancel') and its accessible name. */
  actionLabel: string;
  actionName: (item: T) => string;
  /** The question asked once an item is chosen. */
  confirm: (item: T) => ReactNode;
  submitLabel: string;
  isSubmitting: boolean;
  onSubmit: (item: T, reason: string) => void;
  /** A second action per item that opens a dialog of its own (absent for an item when it returns null). */
  secondAction?: (item: T) => { label: string; name: string; onClick: () => void } | null;
}

/**
 * A modal listing items (current roles, pending requests), each with one action that needs a
 * reason: choosing an item turns the modal into the reason form, Back returns to the list.
 */
export function ReasonListModal<T>(props: ReasonListModalProps<T>) {
  const titleId = useId();
  const { choice, list } = props;
  const { chosen } = choice;
  const items = list.data ?? [];
  // Keyboard focus follows the modal's two views: into the reason once an item is chosen, back to
  // the modal's title after Back or a submitted action (the button used is gone by then).
  const titleRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const wasChosen = useRef(false);
  useEffect(() => {
    if (chosen) formRef.current?.querySelector('textarea')?.focus();
    else if (wasChosen.current) titleRef.current?.focus();
    wasChosen.current = chosen !== undefined;
  }, [chosen]);
  return (
    <Modal
      show={props.show}
      onHide={props.onClose}
      onExited={choice.reset}
      aria-labelledby={titleId}
      centered
    >
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5" ref={titleRef} tabIndex={-1}>
          {props.title}
        </Modal.Title>
      </Modal.Header>
      {chosen ? (
        <Form
          noValidate
          ref={formRef}
          onSubmit={(event) => {
            event.preventDefault();
            choice.setIsTouched(true);
            if (!reasonError(choice.reason) && !props.isSubmitting)
              props.onSubmit(chosen, choice.reason.trim());
          }}
        >
          <Modal.Body>
            <p>{props.confirm(chosen)}</p>
            <ReasonField
              label="Reason"
              value={choice.reason}
              onChange={choice.setReason}
              isTouched={choice.isTouched}
            />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={choice.reset}>
              Back
            </Button>
            <Button type="submit" variant="danger" disabled={props.isSubmitting}>
              {props.submitLabel}
            </Button>
          </Modal.Footer>
        </Form>
      ) : (
        <>
          <Modal.Body>
            {list.isPending ? (
              <p role="status">
                <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
                {props.loadingText}
              </p>
            ) : items.length === 0 ? (
              <p>{props.emptyText}</p>
            ) : (
              <ListGroup>
                {items.map((item) => (
                  <ListGroup.Item
                    key={props.itemKey(item)}
                    className="d-flex align-items-center justify-content-between gap-2"
                  >
                    {props.renderItem(item)}
                    <div className="d-flex flex-wrap justify-content-end gap-2">
                      {(() => {
                        const second = props.secondAction?.(item);
                        return second ? (
                          <Button
                            variant="outline-primary"
                            size="sm"
                            className="text-nowrap"
                            aria-label={second.name}
                            onClick={second.onClick}
                          >
                            {second.label}
                          </Button>
                        ) : null;
                      })()}
                      <Button
                        variant="outline-danger"
                        size="sm"
                        className="text-nowrap"
                        aria-label={props.actionName(item)}
                        onClick={() => choice.choose(item)}
                      >
                        {props.actionLabel}
                      </Button>
                    </div>
                  </ListGroup.Item>
                ))}
              </ListGroup>
            )}
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={props.onClose}>
              Close
            </Button>
          </Modal.Footer>
        </>
      )}
    </Modal>
  );
}
