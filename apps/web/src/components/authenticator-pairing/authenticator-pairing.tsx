import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { pairAuthenticator } from '../../api/authenticator';
import { failureMessage } from '../../api/failure-message';
import { UNKNOWN_ERROR } from '../../api/client';

/**
 * Pairs a phone as the signed-in account's authenticator for push approvals: a nickname, then a
 * QR code to scan with the phone's camera. The code's link opens the portal's authenticator page,
 * which keeps the device key in the phone's storage. Pairing again replaces the earlier phone.
 * Self-contained, for the profile page (placed there by its owner).
 */
export function AuthenticatorPairing() {
  const [nickname, setNickname] = useState('');
  const pair = useMutation({ mutationFn: () => pairAuthenticator({ nickname: nickname.trim() }) });
  const trimmed = nickname.trim();
  const canPair = trimmed.length > 0 && trimmed.length <= 64 && !pair.isPending;

  return (
    <Card>
      <Card.Body>
        <h2 className="h5">Authenticator for push approvals</h2>
        {pair.data ? (
          <>
            <p>
              Scan this QR code with your phone&apos;s camera and open the link. Keep the page it opens:
              sign-in and password reset requests appear there for you to approve.
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
            <p className="small text-body-secondary mt-2 mb-0">
              Treat this code like a password: anyone who scans it can approve your sign-ins.
            </p>
          </>
        ) : (
          <Form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (canPair) pair.mutate();
            }}
          >
            <p>Pair your phone to approve sign-ins and password resets with a tap instead of a passcode.</p>
            <Form.Group className="mb-2" controlId="authenticator-nickname">
              <Form.Label>Phone nickname</Form.Label>
              <Form.Control
                value={nickname}
                maxLength={64}
                autoComplete="off"
                onChange={(event) => setNickname(event.target.value)}
              />
            </Form.Group>
            {pair.error && (
              <Alert variant="danger" role="alert">
                {failureMessage(pair.error, UNKNOWN_ERROR)}
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
