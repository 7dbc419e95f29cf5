import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { PairedAuthenticators } from '@pra/contracts';
import { factorMessages } from '@pra/contracts/plain-texts';
import { callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';
import {
  authenticatorCalls,
  emptyOwnerProof,
  isOwnerProofComplete,
  OwnerConfirmationFields,
  OwnerNotConfirmed,
  whenOwnerConfirmed,
  type OwnerProof,
} from './owner-confirmation';

type Phone = PairedAuthenticators['authenticators'][number];

/** What a failed change shows: the refusal's own words, else the server's, else the fallback. */
export function changeFailure(error: unknown): string {
  return error instanceof OwnerNotConfirmed ? error.message : failureMessage(error, UNKNOWN_ERROR);
}

/** The account's paired phones; each can be removed after the owner confirms it is them. */
export function PairedPhones({
  list,
  queryKey,
}: {
  list: PairedAuthenticators;
  queryKey: readonly unknown[];
}) {
  const [removing, setRemoving] = useState<Phone | undefined>();
  if (list.authenticators.length === 0) return <p>No phone is paired with your account.</p>;
  return (
    <>
      <h3 className="h6">Paired phones</h3>
      <ul className="list-unstyled mb-3">
        {list.authenticators.map((phone) => (
          <li key={phone.id} className="d-flex flex-wrap align-items-center gap-2 mb-2">
            <span>
              <strong>{phone.nickname}</strong>, paired {new Date(phone.pairedAt).toLocaleString()}
              {phone.isRecent &&
                ' (less than 24 hours ago: it cannot approve a password reset by itself yet)'}
            </span>
            <Button
              variant="outline-danger"
              size="sm"
              aria-label={`Remove ${phone.nickname}`}
              onClick={() => setRemoving(phone)}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {removing && (
        <RemovePhoneForm
          key={removing.id}
          phone={removing}
          needsPasscode={list.needsPasscode}
          queryKey={queryKey}
          onDone={() => setRemoving(undefined)}
        />
      )}
    </>
  );
}

function RemovePhoneForm({
  phone,
  needsPasscode,
  queryKey,
  onDone,
}: {
  phone: Phone;
  needsPasscode: boolean;
  queryKey: readonly unknown[];
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [proof, setProof] = useState<OwnerProof>(emptyOwnerProof);
  const remove = useMutation({
    mutationFn: () =>
      whenOwnerConfirmed(proof, needsPasscode, async () =>
        callEndpoint((await authenticatorCalls()).removeAuthenticator, { body: { id: phone.id } }),
      ),
    onSuccess: () => {
      showAlert(factorMessages.removed, 'success');
      onDone();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
  const canRemove = isOwnerProofComplete(proof, needsPasscode) && !remove.isPending;
  return (
    <Form
      noValidate
      className="border rounded p-3 mb-3"
      aria-label={`Remove ${phone.nickname}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (canRemove) remove.mutate();
      }}
    >
      <p>
        Remove <strong>{phone.nickname}</strong>? It will no longer approve your sign-ins or password resets.
      </p>
      <OwnerConfirmationFields
        proof={proof}
        needsPasscode={needsPasscode}
        canPush
        disabled={remove.isPending}
        onChange={setProof}
      />
      {remove.error && (
        <Alert variant="danger" role="alert">
          {changeFailure(remove.error)}
        </Alert>
      )}
      <div className="d-flex gap-2">
        <Button type="submit" variant="danger" disabled={!canRemove}>
          Remove Phone
        </Button>
        <Button variant="outline-secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
