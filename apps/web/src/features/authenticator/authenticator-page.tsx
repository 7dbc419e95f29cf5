import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { AuthenticatorStatus } from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/authenticator';
import { ApiError, callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';
import { useIsAuthenticated } from '../../lib/use-auth-status';
import { AuthenticatorPairing } from '../../components/authenticator-pairing/authenticator-pairing';
import { forgetDeviceKey, readDeviceKey } from './device-key';
import './authenticator-page.css';

/** How often the phone asks for new requests while the page is open. */
const POLL_MS = 2000;

const purposeText = {
  signin: 'Sign-in',
  reset: 'Password reset',
  factor: 'Phone pairing or removal',
} as const;

/**
 * The built-in authenticator (/authenticator), made for a phone: once paired (device key in the
 * phone's storage) it lists pending sign-in and password-reset requests with Approve and Deny,
 * and shows the current passcode.
 */
export function AuthenticatorPage() {
  const [deviceKey, setDeviceKey] = useState(readDeviceKey);
  return (
    <div className="authenticator mx-auto">
      <h1 className="page-title">Authenticator</h1>
      {deviceKey ? (
        <PairedAuthenticator
          deviceKey={deviceKey}
          onForget={() => {
            forgetDeviceKey();
            setDeviceKey(undefined);
          }}
        />
      ) : (
        <NotPaired />
      )}
    </div>
  );
}

/** An unpaired device: how to pair; a signed-in visitor can make the QR code right here. */
function NotPaired() {
  const isAuthenticated = useIsAuthenticated();
  if (isAuthenticated) {
    return (
      <>
        <p>This browser is not an authenticator. Pair your phone here, then keep this page open on it.</p>
        <AuthenticatorPairing />
      </>
    );
  }
  return (
    <Alert variant="info">
      This device is not paired. Sign in to the portal on your computer, open your profile and choose Pair
      Phone, then scan the QR code with this phone.
    </Alert>
  );
}

function PairedAuthenticator({ deviceKey, onForget }: { deviceKey: string; onForget: () => void }) {
  const queryClient = useQueryClient();
  const queryKey = ['authenticator-status', deviceKey];
  const status = useQuery({
    queryKey,
    queryFn: ({ signal }) => callEndpoint(calls.getAuthenticatorStatus, { body: { deviceKey }, signal }),
    refetchInterval: POLL_MS,
    retry: false,
  });
  const answer = useMutation({
    mutationFn: (body: { id: string; approve: boolean }) =>
      callEndpoint(calls.answerAuthenticatorRequest, { body: { deviceKey, ...body } }),
    onSuccess: (_result, body) => showAlert(body.approve ? 'Request approved' : 'Request denied', 'success'),
    onError: (error) => showAlert(failureMessage(error, UNKNOWN_ERROR), 'danger'),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });

  if (status.error) {
    const notPaired = status.error instanceof ApiError && status.error.status === 401;
    return (
      <>
        <Alert variant="warning" role="alert">
          {failureMessage(status.error, UNKNOWN_ERROR)}
        </Alert>
        {notPaired && (
          <Button variant="outline-secondary" onClick={onForget}>
            Forget This Device
          </Button>
        )}
      </>
    );
  }
  if (!status.data) return <p>Loading…</p>;
  return (
    <StatusView
      status={status.data}
      isAnswering={answer.isPending}
      onAnswer={answer.mutate}
      onForget={onForget}
    />
  );
}

function StatusView({
  status,
  isAnswering,
  onAnswer,
  onForget,
}: {
  status: AuthenticatorStatus;
  isAnswering: boolean;
  onAnswer: (body: { id: string; approve: boolean }) => void;
  onForget: () => void;
}) {
  return (
    <>
      <p className="mb-3">
        Paired as <strong>{status.nickname}</strong> for <strong>{status.username}</strong>.
      </p>
      <section aria-labelledby="authenticator-requests" className="mb-4">
        <h2 id="authenticator-requests" className="h5">
          Pending requests
        </h2>
        {status.requests.length === 0 ? (
          <p className="text-body-secondary">
            No requests are waiting. Keep this page open while you sign in.
          </p>
        ) : (
          <ul className="list-unstyled">
            {status.requests.map((request) => (
              <li key={request.id} className="mb-3">
                <Card>
                  <Card.Body>
                    <h3 className="h6">{purposeText[request.purpose]} request</h3>
                    <p className="mb-2 small">
                      From {request.clientAddress} at {new Date(request.createdAt).toLocaleTimeString()}
                    </p>
                    <div className="d-flex gap-2">
                      <Button
                        variant="success"
                        className="flex-fill"
                        disabled={isAnswering}
                        onClick={() => onAnswer({ id: request.id, approve: true })}
                      >
                        Approve
                      </Button>
                      <Button
                        variant="danger"
                        className="flex-fill"
                        disabled={isAnswering}
                        onClick={() => onAnswer({ id: request.id, approve: false })}
                      >
                        Deny
                      </Button>
                    </div>
                  </Card.Body>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
      {status.passcode && (
        <section aria-labelledby="authenticator-passcode" className="mb-4">
          <h2 id="authenticator-passcode" className="h5">
            Current passcode
          </h2>
          <p className="authenticator-passcode mb-1" aria-live="off">
            {status.passcode}
          </p>
          <p className="small text-body-secondary">Changes in {status.secondsLeft} seconds.</p>
        </section>
      )}
      {status.passcodeFrom && (
        <p className="small text-body-secondary">
          Passcodes show here from {new Date(status.passcodeFrom).toLocaleString()}: for its first 24 hours a
          newly paired phone cannot approve a password reset by itself.
        </p>
      )}
      <Button variant="outline-secondary" size="sm" onClick={onForget}>
        Forget This Device
      </Button>
    </>
  );
}
