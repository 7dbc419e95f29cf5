import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { reviewMessages, type AccessConfirmation } from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/access-reviews';
import { ApiError, callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';

const key = ['access-confirmation'] as const;

/** Confirm your access (GOVERNANCE.md §4.2): the vendor answers "Do you still need access to {Org}?". */
export function ConfirmAccessPage() {
  const { data } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => callEndpoint(calls.getAccessConfirmation, { signal }),
    meta: { alertOnError: true },
  });
  if (!data) return null;
  return (
    <section aria-labelledby="confirm-heading">
      <h1 id="confirm-heading" className="page-title">
        {reviewMessages.confirmHeading}
      </h1>
      {data.items.length === 0 ? (
        <p>{reviewMessages.noConfirmation}</p>
      ) : (
        data.items.map((item) => <Question key={item.itemId} item={item} />)
      )}
    </section>
  );
}

function Question({ item }: { item: AccessConfirmation['items'][number] }) {
  const client = useQueryClient();
  const [answer, setAnswer] = useState<'yes' | 'no' | null>(item.answer);
  const [comment, setComment] = useState(item.comment ?? '');
  const [error, setError] = useState('');
  const name = `answer-${item.itemId}`;
  async function send(event: FormEvent) {
    event.preventDefault();
    if (!answer) return setError('Choose an answer');
    try {
      await callEndpoint(calls.answerAccessConfirmation, {
        body: {
          itemId: item.itemId,
          stillNeeded: answer === 'yes',
          ...(comment.trim() ? { comment: comment.trim() } : {}),
        },
      });
      setError('');
      showAlert(reviewMessages.answerSent, 'success');
      await client.invalidateQueries({ queryKey: key });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  }
  return (
    <Form onSubmit={(e) => void send(e)} noValidate className="mb-4" style={{ maxWidth: '36rem' }}>
      <fieldset>
        <legend className="h5">{reviewMessages.confirmQuestion(item.organization)}</legend>
        <p className="small">Your sponsor decides by {item.dueOn}.</p>
        <Form.Check
          type="radio"
          id={`${name}-yes`}
          name={name}
          label={reviewMessages.stillNeeded}
          checked={answer === 'yes'}
          onChange={() => setAnswer('yes')}
        />
        <Form.Check
          type="radio"
          id={`${name}-no`}
          name={name}
          label={reviewMessages.noLongerNeeded}
          checked={answer === 'no'}
          onChange={() => setAnswer('no')}
        />
      </fieldset>
      <Form.Group className="my-3" controlId={`${name}-comment`}>
        <Form.Label>Comment (optional)</Form.Label>
        <Form.Control maxLength={255} value={comment} onChange={(e) => setComment(e.target.value)} />
      </Form.Group>
      {error && (
        <div className="alert alert-danger" role="alert">
          {error}
        </div>
      )}
      <Button type="submit">{reviewMessages.sendAnswer}</Button>
    </Form>
  );
}
