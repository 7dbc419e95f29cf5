import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import { accessReason } from '@pra/contracts/access';
import { fieldError } from '@pra/contracts/text-fields';

interface ReasonFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Show 'Required' for an empty value (after the person touched the form). */
  isTouched: boolean;
}

/** The server's rule for a justification or reason: required, one line, limited length. */
export function reasonError(value: string): string | undefined {
  return fieldError(accessReason, value);
}

/** A justification or reason input, judged as typed by the same rule the server applies. */
export function ReasonField({ label, value, onChange, isTouched }: ReasonFieldProps) {
  const id = useId();
  const error = reasonError(value);
  const shown = error && (isTouched || value.length > 0) ? error : undefined;
  return (
    <Form.Group className="mb-3" controlId={`${id}-reason`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        as="textarea"
        rows={2}
        value={value}
        required
        isInvalid={Boolean(shown)}
        aria-invalid={Boolean(shown)}
        aria-describedby={shown ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <Form.Control.Feedback type="invalid" id={`${id}-error`}>
        {shown}
      </Form.Control.Feedback>
    </Form.Group>
  );
}
