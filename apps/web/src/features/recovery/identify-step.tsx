import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import type { IdentifyBody, IdentifyResponse } from '@pra/contracts';
import { routes } from '@pra/contracts/paths';
import { identifyBody, recoveryMessages } from '@pra/contracts/recovery';
import * as calls from '@pra/contracts/endpoints/recovery';
import { callEndpoint } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { Link } from '../../lib/routing/router';
import { TextField } from '../../components/text-field/text-field';

interface IdentifyStepProps {
  /** What was typed before (Back from step 2 shows it again). */
  typed: IdentifyBody;
  onIdentified: (result: IdentifyResponse, typed: IdentifyBody) => void;
}

/** Step 0: username and email identify the account; the server binds it to this session. */
export function IdentifyStep({ typed, onIdentified }: IdentifyStepProps) {
  const { register, handleSubmit, formState, getValues } = useForm({
    resolver: zodResolver(identifyBody),
    mode: 'onTouched',
    defaultValues: typed,
  });
  const { errors, isValid } = formState;
  const [invalidReason, setInvalidReason] = useState<string | undefined>();
  const identify = useMutation({
    mutationFn: (body: IdentifyBody) => withLoading(() => callEndpoint(calls.identifyAccount, { body })),
    onMutate: () => setInvalidReason(undefined),
    onSuccess: (result) => {
      if (result.isAccountValid) {
        onIdentified(result, getValues());
        return;
      }
      const reason = result.invalidReason ?? recoveryMessages.identifyUnexpected;
      showAlert(reason, 'danger');
      setInvalidReason(reason);
    },
    onError: (error) => {
      const message = failureMessage(error, recoveryMessages.identifyUnexpected);
      showAlert(message, 'danger');
      setInvalidReason(message);
    },
  });
  const canGoNext = isValid && !identify.isPending;

  // handleSubmit's promise rejects only if its callback throws; mutate never does (its failure is the mutation's error).
  return (
    <Form
      noValidate
      onSubmit={(event) => void handleSubmit((body) => canGoNext && identify.mutate(body))(event)}
    >
      <p>Enter your username and the email address of your account.</p>
      <TextField
        label="Username"
        autoComplete="username"
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      {invalidReason && (
        <Alert variant="warning" role="alert">
          {invalidReason}
        </Alert>
      )}
      <div className="d-flex gap-2">
        <Link className="btn btn-secondary" to={routes.home}>
          Cancel
        </Link>
        <Button type="submit" disabled={!canGoNext}>
          Next
        </Button>
      </div>
    </Form>
  );
}
