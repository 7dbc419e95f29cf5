import { useMutation } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { securityKeyMessages } from '@pra/contracts/plain-texts';
import { recoveryMessages } from '@pra/contracts/recovery';
import * as calls from '@pra/contracts/endpoints/recovery';
import { ApiError, callEndpoint } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { runCeremony } from '../../lib/security-key-ceremony';

/**
 * Forgot Password, "Security key or passkey" (GOVERNANCE.md §7.3): the identified account's key
 * proves who the person is instead of a passcode or a push.
 */
export function SecurityKeyPanel({ username, onVerified }: { username: string; onVerified: () => void }) {
  const verify = useMutation({
    mutationFn: async () => {
      const { options } = await callEndpoint(calls.recoveryKeyOptions, { body: { username } });
      const credential = await runCeremony('get', options);
      const outcome = await callEndpoint(calls.recoveryKeyVerify, { body: { username, credential } });
      if (outcome.result === 'tooManyAttempts') throw new Error(recoveryMessages.tooManyAttempts);
      if (outcome.result !== 'success') throw new Error(outcome.message ?? securityKeyMessages.unexpected);
    },
    onSuccess: onVerified,
  });
  const error = verify.error;
  const problem =
    error instanceof ApiError
      ? failureMessage(error, securityKeyMessages.unexpected)
      : error instanceof Error
        ? error.message
        : undefined;
  return (
    <Card className="mb-3">
      <Card.Body>
        <h3 className="h5">Security key or passkey</h3>
        <p>Use a security key or passkey you added to your account to prove it is you.</p>
        {problem && (
          <Alert variant="warning" role="alert">
            {problem}
          </Alert>
        )}
        <Button onClick={() => verify.mutate()} disabled={verify.isPending}>
          Verify with Security Key
        </Button>
      </Card.Body>
    </Card>
  );
}
