import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { AccountSummary } from '@pra/contracts';
import { passcode as passcodeSchema, recoveryMessages } from '@pra/contracts/recovery';
import * as calls from '@pra/contracts/endpoints/recovery';
import { callEndpoint } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { SecurityKeyPanel } from './security-key-panel';
import { useVerification, type Method } from './use-verification';

interface VerifyStepProps {
  account: AccountSummary;
  /** The account's device; the push panel only when a paired phone can receive one. */
  device: { nickname: string; canPush: boolean } | undefined;
  /** The account has a security key or passkey: its panel comes first. */
  hasSecurityKey: boolean;
  /** The account must use a key (GOVERNANCE.md §7.3): the passcode and push panels are hidden. */
  keyRequired?: boolean;
  /** Arrived by the emailed link: the key check is what is left, no other mail is offered. */
  viaLink?: boolean;
  onVerified: () => void;
  onEmailSent: () => void;
  onBack: () => void;
}

/**
 * Step 2: a security key or passkey, push (with a paired phone) or passcode from the MFA device, or
 * a reset link by email.
 */
export function VerifyStep({
  account,
  device,
  hasSecurityKey,
  keyRequired = false,
  viaLink = false,
  onVerified,
  onEmailSent,
  onBack,
}: VerifyStepProps) {
  const verification = useVerification(account.username, onVerified);
  const sendEmail = useMutation({
    mutationFn: () =>
      withLoading(() => callEndpoint(calls.sendResetEmail, { body: { username: account.username } })),
    onSuccess: (result) => {
      if (!result.success) {
        showAlert(recoveryMessages.sendUnexpected, 'danger');
        return;
      }
      showAlert(recoveryMessages.resetEmailSent, 'success');
      onEmailSent();
    },
    onError: (error) => showAlert(failureMessage(error, recoveryMessages.sendUnexpected), 'danger'),
  });

  return (
    <>
      {hasSecurityKey && <SecurityKeyPanel username={account.username} onVerified={onVerified} />}
      {keyRequired ? (
        !hasSecurityKey && <Alert variant="warning">{recoveryMessages.keyRequiredNoKey}</Alert>
      ) : device ? (
        <div className="row g-3 mb-3">
          {device.canPush && (
            <div className="col-md-6">
              <Card className="h-100">
                <Card.Body>
                  <h3 className="h5">Push notification</h3>
                  <p>
                    Send a request to your authenticator{device.nickname ? ` (${device.nickname})` : ''} and
                    approve it there.
                  </p>
                  <Button onClick={verification.push}>Send Push</Button>
                </Card.Body>
              </Card>
            </div>
          )}
          <div className="col-md-6">
            <PasscodePanel onSubmit={verification.passcode} />
          </div>
        </div>
      ) : (
        !hasSecurityKey && <Alert variant="info">{recoveryMessages.noDevice}</Alert>
      )}
      {verification.failure && (
        <Alert variant="warning" role="alert">
          {verification.failure}
        </Alert>
      )}
      {!(keyRequired && (viaLink || !hasSecurityKey)) && (
        <Card className="mb-3">
          <Card.Body>
            <h3 className="h5">Reset by email</h3>
            <p>
              We can send a single-use password reset link to <strong>{account.email}</strong>.
            </p>
            <Button
              variant="outline-primary"
              onClick={() => sendEmail.mutate()}
              disabled={sendEmail.isPending}
            >
              Send Password Reset Email
            </Button>
          </Card.Body>
        </Card>
      )}
      <Button variant="secondary" onClick={onBack}>
        Back
      </Button>
      <WaitingDialog method={verification.waitingFor} onCancel={verification.cancel} />
    </>
  );
}

function PasscodePanel({ onSubmit }: { onSubmit: (otp: string) => void }) {
  const [otp, setOtp] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const check = passcodeSchema.safeParse(otp);
  const error = check.success ? undefined : check.error.issues[0]?.message;
  const showError = isTouched && error !== undefined;
  return (
    <Card className="h-100">
      <Card.Body>
        <Form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (check.success) onSubmit(check.data);
          }}
        >
          <h3 className="h5">Passcode</h3>
          <Form.Group className="mb-2" controlId="forgot-otp">
            <Form.Label>6-digit passcode from your authenticator</Form.Label>
            <Form.Control
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={otp}
              onChange={(event) => setOtp(event.target.value)}
              onBlur={() => setIsTouched(true)}
              isInvalid={showError}
              aria-invalid={showError}
              aria-describedby={showError ? 'forgot-otp-error' : undefined}
            />
            <Form.Control.Feedback type="invalid" id="forgot-otp-error">
              {error}
            </Form.Control.Feedback>
          </Form.Group>
          <Button type="submit" disabled={!check.success}>
            Send Code
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}

/** Shown while a push or passcode is checked; Cancel aborts the request. */
function WaitingDialog({ method, onCancel }: { method: Method | undefined; onCancel: () => void }) {
  return (
    <Modal
      show={method !== undefined}
      onHide={onCancel}
      backdrop="static"
      centered
      aria-labelledby="waiting-title"
    >
      <Modal.Header>
        <Modal.Title id="waiting-title" as="h2" className="h5">
          {method === 'push' ? 'Waiting for approval' : 'Checking passcode'}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="d-flex align-items-center gap-3">
        <Spinner animation="border" role="status" aria-hidden="true" />
        <p className="mb-0">
          {method === 'push'
            ? 'Approve the request on your authenticator to continue.'
            : 'Your passcode is being verified.'}
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
