import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import { factorMessages } from '@pra/contracts/plain-texts';
import { callEndpoint } from '../../api/client';

/** What the owner types to confirm a change of its second factors. */
export interface OwnerProof {
  password: string;
  passcode: string;
  /** The second step: the passcode, or a push approved on a paired phone. */
  method: 'passcode' | 'push';
}

export const emptyOwnerProof: OwnerProof = { password: '', passcode: '', method: 'passcode' };

/** Whether the proof can be sent: a password, and a 6-digit passcode (or a push) when one is asked for. */
export function isOwnerProofComplete(proof: OwnerProof, needsPasscode: boolean): boolean {
  const secondStep = !needsPasscode || proof.method === 'push' || /^\d{6}$/.test(proof.passcode.trim());
  return proof.password.length > 0 && secondStep;
}

/** A refused confirmation, with the words to show. */
export class OwnerNotConfirmed extends Error {}

/** The authenticator calls' definitions, loaded (with the schema library) when someone acts. */
export function authenticatorCalls() {
  return import('@pra/contracts/endpoints/authenticator');
}

/**
 * Confirms the owner (POST /api/user/authenticator/confirm), then makes the change the
 * confirmation allows; a wrong password or passcode throws `OwnerNotConfirmed` and changes nothing.
 */
export async function whenOwnerConfirmed<T>(
  proof: OwnerProof,
  needsPasscode: boolean,
  change: () => Promise<T>,
): Promise<T> {
  const second =
    proof.method === 'push' ? { push: true } : needsPasscode ? { passcode: proof.passcode.trim() } : {};
  const { result } = await callEndpoint((await authenticatorCalls()).confirmOwner, {
    body: { password: proof.password, ...second },
  });
  if (result === 'authenticationFailure') throw new OwnerNotConfirmed(factorMessages.passwordIncorrect);
  if (result === 'invalidCode') throw new OwnerNotConfirmed(factorMessages.passcodeInvalid);
  if (result === 'pushNotApproved') throw new OwnerNotConfirmed(factorMessages.pushNotApproved);
  return change();
}

/** The password and (when the account has an authenticator) passcode fields of a confirmation. */
export function OwnerConfirmationFields({
  proof,
  needsPasscode,
  canPush,
  disabled,
  onChange,
}: {
  proof: OwnerProof;
  needsPasscode: boolean;
  /** Whether a paired phone can approve a push instead of the passcode. */
  canPush: boolean;
  disabled: boolean;
  onChange: (proof: OwnerProof) => void;
}) {
  const id = useId();
  const byPush = canPush && proof.method === 'push';
  return (
    <fieldset className="mb-2" disabled={disabled}>
      <legend className="fs-6 fw-semibold">Confirm it is you</legend>
      <Form.Group className="mb-2" controlId={`${id}-password`}>
        <Form.Label>Your password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="current-password"
          value={proof.password}
          onChange={(event) => onChange({ ...proof, password: event.target.value })}
        />
      </Form.Group>
      {needsPasscode && canPush && (
        <div className="mb-2" role="radiogroup" aria-label="How to confirm">
          <Form.Check
            type="radio"
            id={`${id}-by-passcode`}
            name={`${id}-method`}
            label="With a passcode from my authenticator app"
            checked={!byPush}
            onChange={() => onChange({ ...proof, method: 'passcode' })}
          />
          <Form.Check
            type="radio"
            id={`${id}-by-push`}
            name={`${id}-method`}
            label="By approving a request on a paired phone"
            checked={byPush}
            onChange={() => onChange({ ...proof, method: 'push' })}
          />
        </div>
      )}
      {byPush && disabled && (
        <p role="status" className="small">
          Approve the request on your paired phone…
        </p>
      )}
      {needsPasscode && !byPush && (
        <Form.Group className="mb-2" controlId={`${id}-passcode`}>
          <Form.Label>Passcode from your authenticator app</Form.Label>
          <Form.Control
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={proof.passcode}
            aria-describedby={`${id}-passcode-help`}
            onChange={(event) => onChange({ ...proof, passcode: event.target.value })}
          />
          <Form.Text id={`${id}-passcode-help`}>The 6 digits your authenticator app shows now.</Form.Text>
        </Form.Group>
      )}
    </fieldset>
  );
}
