import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { api } from '@pra/contracts/paths';
import { pairedAuthenticatorsBody } from '../../api/boot-parsers';
import { call, callEndpoint } from '../../api/client';
import {
  authenticatorCalls,
  emptyOwnerProof,
  isOwnerProofComplete,
  OwnerConfirmationFields,
  whenOwnerConfirmed,
  type OwnerProof,
} from './owner-confirmation';
import { changeFailure, PairedPhones } from './paired-phones';

const queryKey = ['paired-authenticators'] as const;

/**
 * The signed-in account's phones for push approvals: those paired (each removable), and pairing
 * one more beside them: a nickname and the owner's confirmation (password, and a passcode when
 * the account has an authenticator), then a QR code to scan with the phone's camera. The code's
 * link opens the portal's authenticator page, which keeps the device key in the phone's storage.
 * The owner is emailed about every phone added or removed. Self-contained, for the profile page
 * and the authenticator page.
 */
export function AuthenticatorPairing() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey,
    // Checked by hand (boot-parsers.ts): the calls' definitions load when someone acts.
    queryFn: ({ signal }) =>
      call(pairedAuthenticatorsBody, { method: 'get', url: api.authenticators, signal }),
    retry: false,
  });
  const needsPasscode = list.data?.needsPasscode ?? true;
  const [nickname, setNickname] = useState('');
  const [proof, setProof] = useState<OwnerProof>(emptyOwnerProof);
  const pair = useMutation({
    mutationFn: () =>
      whenOwnerConfirmed(proof, needsPasscode, async () =>
        callEndpoint((await authenticatorCalls()).pairAuthenticator, { body: { nickname: nickname.trim() } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
  const trimmed = nickname.trim();
  const canPair =
    trimmed.length > 0 &&
    trimmed.length <= 64 &&
    isOwnerProofComplete(proof, needsPasscode) &&
    list.data !== undefined &&
    !pair.isPending;

  return (
    <Card>
      <Card.Body>
        <h2 className="h5">Authenticator for push approvals</h2>
        {list.data && !pair.data && <PairedPhones list={list.data} queryKey={queryKey} />}
        {pair.data ? (
          <>
            <p>
              Scan this QR code with your phone&apos;s camera and open the link. Keep the page it opens:
              sign-in and password reset requests appear there for you to approve. We emailed you about the
              new phone.
            </p>
            <img
              src={pair.data.qrDataUrl}
              width={220}
              height={220}
              alt="QR code that pairs your phone as your authenticator"
            />
            <details className="mt-2">
              <summary>Cannot scan the code?</summary>
              <p className="mb-1">Open this link on your phone instead:</p>
              <a href={pair.data.pairingUrl} className="text-break small">
                {pair.data.pairingUrl}
              </a>
            </details>
            <p className="small text-body-secondary mt-2">
              Treat this code like a password: anyone who scans it can approve your sign-ins. For its first 24
              hours the phone cannot approve a password reset by itself.
            </p>
            <Button
              variant="outline-secondary"
              onClick={() => {
                pair.reset();
                setNickname('');
                setProof(emptyOwnerProof);
              }}
            >
              Done
            </Button>
          </>
        ) : (
          <Form
            noValidate
            aria-label="Pair a phone"
            onSubmit={(event) => {
              event.preventDefault();
              if (canPair) pair.mutate();
            }}
          >
            <p>
              Pair a phone to approve sign-ins and password resets with a tap instead of a passcode. Phones
              you paired before stay paired.
            </p>
            <Form.Group className="mb-2" controlId="authenticator-nickname">
              <Form.Label>Phone nickname</Form.Label>
              <Form.Control
                value={nickname}
                maxLength={64}
                autoComplete="off"
                onChange={(event) => setNickname(event.target.value)}
              />
            </Form.Group>
            <OwnerConfirmationFields
              proof={proof}
              needsPasscode={needsPasscode}
              canPush={(list.data?.authenticators.length ?? 0) > 0}
              disabled={pair.isPending}
              onChange={setProof}
            />
            {pair.error && (
              <Alert variant="danger" role="alert">
                {changeFailure(pair.error)}
              </Alert>
            )}
            <Button type="submit" disabled={!canPair}>
              Pair Phone
            </Button>
          </Form>
        )}
      </Card.Body>
    </Card>
  );
}
