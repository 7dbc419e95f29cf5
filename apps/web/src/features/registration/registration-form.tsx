import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm, useWatch } from 'react-hook-form';
import type { RegistrationBody } from '@pra/contracts';
import { registrationBody, registrationMessages } from '@pra/contracts/registration';
import * as calls from '@pra/contracts/endpoints/registration';
import { callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import { withLoading } from '../../lib/loading';
import { queryKeys } from '../../lib/query-keys';
import { useLeaveGuard } from '../../lib/routing/router';
import {
  AcceptableUsePolicyModal,
  POLICY_TITLE,
} from '../../components/acceptable-use-policy/acceptable-use-policy';
import { EmailStatusAlert } from './email-status-alert';
import { organizationChoices, type Registrant } from './organization-choices';
import { TextField } from '../../components/text-field/text-field';
import { useEmailChecks } from './use-email-checks';

const blank: RegistrationBody = { firstName: '', lastName: '', email: '', org: '' };

interface RegistrationFormProps {
  /** The signed-in BRM or admin registering on behalf of a vendor; undefined for self-registration. */
  user: Registrant | undefined;
  /** Whether `user` registers someone else (BRM or admin): no policy checkbox, own organizations only. */
  isOnBehalf: boolean;
  onRegistered: (email: string, waiting: { org: string; expiresOn?: string | undefined }) => void;
}

/** First Name, Last Name, Email, Organization (and the policy checkbox for self-registrants), then Register. */
export function RegistrationForm({ user, isOnBehalf, onRegistered }: RegistrationFormProps) {
  const [hasAgreed, setHasAgreed] = useState(false);
  const [isPolicyShown, setIsPolicyShown] = useState(false);
  const { register, handleSubmit, control, setValue, formState } = useForm({
    resolver: zodResolver(registrationBody),
    mode: 'onTouched',
    defaultValues: blank,
  });
  const { errors, isValid, isDirty } = formState;
  // Half filled in, the form is not left without asking (once registered, it is gone).
  useLeaveGuard(isDirty);
  const email = useWatch({ control, name: 'email' });
  const org = useWatch({ control, name: 'org' });
  const checks = useEmailChecks(email);
  const choices = checks.domainOrgs ? organizationChoices(checks.domainOrgs, user) : undefined;
  const choicesKey = choices?.join('\n');

  // The form submits only what the select shows. While the list is (re)loading after an email
  // change the select shows no organization, so the choice is dropped and must be made again;
  // once loaded, a lone organization is picked.
  useEffect(() => {
    if (choicesKey === undefined) {
      if (org) setValue('org', '', { shouldValidate: true });
      return;
    }
    const options = choicesKey ? choicesKey.split('\n') : [];
    const [only] = options;
    if (options.length === 1 && only !== undefined && org !== only)
      setValue('org', only, { shouldValidate: true });
    else if (org && !options.includes(org)) setValue('org', '', { shouldValidate: true });
  }, [choicesKey, org, setValue]);

  // During maintenance the form says so at once, instead of a refusal after it was filled in.
  const availability = useQuery({
    queryKey: queryKeys.registrationAvailability,
    queryFn: ({ signal }) => callEndpoint(calls.getRegistrationAvailability, { signal }),
    staleTime: 60_000,
  });
  const isClosed = availability.data?.available === false;
  const submit = useMutation({
    mutationFn: (body: RegistrationBody) =>
      withLoading(() => callEndpoint(calls.submitRegistration, { body })),
    onSuccess: (result, body) => {
      if (result.success) onRegistered(body.email, { org: body.org, expiresOn: result.expiresOn });
    },
  });
  const submitError = submit.error?.message ?? (submit.data?.success === false ? UNKNOWN_ERROR : undefined);

  const emailError =
    errors.email?.message ??
    (checks.domainOrgs?.length === 0 ? registrationMessages.unrecognizedDomain : undefined);
  const orgError =
    errors.org?.message ??
    (checks.domainOrgs?.length && choices?.length === 0
      ? registrationMessages.noOrganizations(checks.domain)
      : undefined);
  const hasConflict = checks.emailStatus !== undefined && checks.emailStatus !== 'available';
  const canRegister =
    isValid &&
    choices !== undefined &&
    choices.includes(org) &&
    checks.emailStatus === 'available' &&
    (isOnBehalf || hasAgreed) &&
    !isClosed &&
    !submit.isPending;

  // handleSubmit's promise rejects only if its callback throws; mutate never does (its failure is the mutation's error).
  return (
    <Form
      noValidate
      onSubmit={(event) => void handleSubmit((body) => canRegister && submit.mutate(body))(event)}
    >
      {isClosed && <Alert variant="warning">{registrationMessages.maintenance}</Alert>}
      {submitError && (
        <Alert variant="danger" role="alert">
          {submitError}
        </Alert>
      )}
      <TextField
        label="First Name"
        autoComplete="given-name"
        error={errors.firstName?.message}
        {...register('firstName')}
      />
      <TextField
        label="Last Name"
        autoComplete="family-name"
        error={errors.lastName?.message}
        {...register('lastName')}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={emailError}
        after={hasConflict && <EmailStatusAlert status={checks.emailStatus} isOnBehalf={isOnBehalf} />}
        {...register('email')}
      />
      <Form.Group className="mb-3" controlId="registration-org">
        <Form.Label>Organization</Form.Label>
        <Form.Select
          {...register('org')}
          value={org}
          disabled={!choices?.length}
          isInvalid={!!orgError}
          aria-invalid={!!orgError}
          aria-describedby={orgError ? 'registration-org-error' : 'registration-org-hint'}
        >
          <option value="">{choices?.length ? 'Select an organization' : ''}</option>
          {choices?.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Form.Select>
        <Form.Control.Feedback type="invalid" id="registration-org-error">
          {orgError}
        </Form.Control.Feedback>
        {!orgError && (
          <Form.Text id="registration-org-hint">
            {choices
              ? 'Organizations using the email domain.'
              : 'Enter a valid email to load the organizations.'}
          </Form.Text>
        )}
      </Form.Group>
      {!isOnBehalf && (
        <div className="mb-3">
          <p className="mb-1">
            <Button variant="link" className="p-0" onClick={() => setIsPolicyShown(true)}>
              Read the {POLICY_TITLE}
            </Button>
          </p>
          <Form.Check
            id="registration-agree"
            label={`I agree to the ${POLICY_TITLE}`}
            checked={hasAgreed}
            onChange={(event) => setHasAgreed(event.target.checked)}
          />
          <AcceptableUsePolicyModal show={isPolicyShown} onHide={() => setIsPolicyShown(false)} />
        </div>
      )}
      <Button type="submit" disabled={!canRegister}>
        Register
      </Button>
    </Form>
  );
}
