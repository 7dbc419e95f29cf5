import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { claimCode } from '@pra/contracts/activation';
import type { CodeCheck } from './wizard-state';

const CODE_ACCEPTED = 'Activation code accepted.';
const CODE_NOT_VALID = 'This activation code is not valid.';

interface CodeStepProps {
  code: string;
  /** The server's answer for the code in the field, if checked. */
  check: CodeCheck | undefined;
  isChecking: boolean;
  isPolicyAccepted: boolean;
  onCodeChange: (code: string) => void;
  onVerify: (code: string) => void;
}

/** Step 2: the activation code, checked with the server; its answer shows on the field. */
export function CodeStep({
  code,
  check,
  isChecking,
  isPolicyAccepted,
  onCodeChange,
  onVerify,
}: CodeStepProps) {
  const isWellFormed = claimCode.safeParse(code).success;
  const isValid = check?.result.isValid === true;
  const feedback = check && (isValid ? CODE_ACCEPTED : (check.result.invalidReason ?? CODE_NOT_VALID));
  const feedbackId = 'claimCode-feedback';

  return (
    <Form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (isWellFormed && !isChecking) onVerify(code);
      }}
    >
      <p>Enter the activation code from the email you received when your registration was approved.</p>
      <Form.Group className="mb-3" controlId="claimCode">
        <Form.Label>Activation Code</Form.Label>
        <div className="d-flex gap-2 align-items-start">
          <div className="flex-grow-1">
            <Form.Control
              name="claimCode"
              placeholder="enter code"
              autoComplete="one-time-code"
              spellCheck={false}
              maxLength={64}
              value={code}
              onChange={(event) => onCodeChange(event.target.value)}
              isValid={check !== undefined && isValid}
              isInvalid={check !== undefined && !isValid}
              aria-invalid={check !== undefined && !isValid}
              aria-describedby={check ? feedbackId : undefined}
            />
            {check && (
              <Form.Control.Feedback type={isValid ? 'valid' : 'invalid'} id={feedbackId} role="status">
                {feedback}
              </Form.Control.Feedback>
            )}
          </div>
          <Button type="submit" variant="outline-primary" disabled={!isWellFormed || isChecking}>
            {isChecking && (
              <Spinner as="span" animation="border" size="sm" className="me-1" aria-hidden="true" />
            )}
            Verify Code
          </Button>
        </div>
      </Form.Group>
      {!isPolicyAccepted && (
        <p className="text-body-secondary">Accept the acceptable use policy (previous step) to continue.</p>
      )}
    </Form>
  );
}
