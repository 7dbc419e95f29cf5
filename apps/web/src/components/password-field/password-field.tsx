import { useEffect, useId, useState, type ChangeEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useCommonPasswords } from './common-passwords';
import { evaluatePassword, PASSWORDS_MUST_MATCH, type PasswordPair } from './evaluate-password';
import { PasswordChecklist } from './password-checklist';
import { PasswordStrength } from './password-strength';
import { usePasswordRequirements } from './use-password-requirements';
import './password-field.css';

export interface PasswordFieldProps {
  /** Whose password: the server's policy (its blocked terms) depends on the person. */
  username: string;
  /** Controlled value; the shape of react-hook-form's `field` works too (`<Controller render=...>`). */
  value: PasswordPair;
  onChange: (value: PasswordPair) => void;
  /** Told whenever the pair becomes valid or invalid, so the caller can enable its submit button. */
  onValidityChange?: (isValid: boolean) => void;
  disabled?: boolean;
}

/**
 * The shared New Password / Confirm Password component: the server's rules as a live checklist,
 * 'Passwords must match', and an advisory strength meter. Used by activation, recovery and profile.
 */
export function PasswordField({ username, value, onChange, onValidityChange, disabled }: PasswordFieldProps) {
  const id = useId();
  const [isShown, setIsShown] = useState(false);
  const [isConfirmTouched, setIsConfirmTouched] = useState(false);
  const requirements = usePasswordRequirements(username);
  // zxcvbn's dictionaries (the common-password list and the meter's) weigh ~220 kB gzip: they load
  // once someone turns to the new password (focus or a first character), never on arrival.
  const [isStarted, setIsStarted] = useState(false);
  const hasStarted = isStarted || value.newPassword.length > 0;
  const commonPasswords = useCommonPasswords(hasStarted && requirements.data?.rejectCommonPasswords === true);
  const { checks, matches, isValid } = evaluatePassword(value, requirements.data, commonPasswords);

  useEffect(() => {
    onValidityChange?.(isValid);
  }, [isValid, onValidityChange]);

  const handleChange = (key: keyof PasswordPair) => (event: ChangeEvent<HTMLInputElement>) =>
    onChange({ ...value, [key]: event.target.value });

  const showMismatch = !matches && (isConfirmTouched || value.confirmPassword.length > 0);
  const hasFailedRule = value.newPassword.length > 0 && checks.some((check) => !check.ok);
  const checklistId = `${id}-checklist`;
  const mismatchId = `${id}-mismatch`;
  const type = isShown ? 'text' : 'password';

  return (
    <fieldset className="password-field" disabled={disabled}>
      <legend className="visually-hidden">Password</legend>
      <Form.Group className="mb-2" controlId={`${id}-new`}>
        <Form.Label>New Password</Form.Label>
        <Form.Control
          type={type}
          autoComplete="new-password"
          value={value.newPassword}
          onChange={handleChange('newPassword')}
          onFocus={() => setIsStarted(true)}
          isInvalid={hasFailedRule}
          isValid={isValid}
          aria-describedby={requirements.data ? checklistId : undefined}
        />
      </Form.Group>
      <Form.Group className="mb-2" controlId={`${id}-confirm`}>
        <Form.Label>Confirm Password</Form.Label>
        <Form.Control
          type={type}
          autoComplete="new-password"
          value={value.confirmPassword}
          onChange={handleChange('confirmPassword')}
          onBlur={() => setIsConfirmTouched(true)}
          isInvalid={showMismatch}
          aria-invalid={showMismatch || undefined}
          aria-describedby={showMismatch ? mismatchId : undefined}
        />
        {showMismatch && (
          <Form.Control.Feedback type="invalid" id={mismatchId}>
            {PASSWORDS_MUST_MATCH}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      <Form.Check
        className="mb-2"
        id={`${id}-show`}
        label="Show passwords"
        checked={isShown}
        onChange={(event) => setIsShown(event.target.checked)}
      />
      <PasswordStrength
        password={value.newPassword}
        userInputs={[username]}
        meetsRules={requirements.data !== undefined && checks.every((check) => check.ok)}
      />
      {requirements.isPending && (
        <p className="small" role="status">
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          Loading password requirements…
        </p>
      )}
      {requirements.isError && (
        <Alert variant="danger" className="small">
          The password requirements could not be loaded, so a new password cannot be set right now.
        </Alert>
      )}
      {requirements.data && (
        <PasswordChecklist id={checklistId} checks={checks} isStarted={value.newPassword.length > 0} />
      )}
    </fieldset>
  );
}
