import { useId, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import type { UseFormRegisterReturn } from 'react-hook-form';

interface TextFieldProps extends UseFormRegisterReturn {
  label: string;
  type?: 'text' | 'email';
  autoComplete?: string;
  error?: string;
  /** Shown under the field (e.g. the email warning). */
  after?: ReactNode;
}

/**
 * A labelled text input (registration and the forgot flows) with its error announced through aria-describedby.
 * No maxLength: the browser would cut a pasted value silently; 'Max 255 characters' says so instead.
 */
export function TextField({ label, type = 'text', autoComplete, error, after, ...field }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        autoComplete={autoComplete}
        isInvalid={!!error}
        aria-invalid={!!error}
        aria-describedby={error ? errorId : undefined}
        {...field}
      />
      <Form.Control.Feedback type="invalid" id={errorId}>
        {error}
      </Form.Control.Feedback>
      {after}
    </Form.Group>
  );
}
