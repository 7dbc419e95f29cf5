import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import type { AccountSummary, UserIdSearchBody } from '@pra/contracts';
import { routes } from '@pra/contracts/paths';
import { recoveryMessages, userIdSearchBody } from '@pra/contracts/recovery';
import * as calls from '@pra/contracts/endpoints/recovery';
import { callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import { withLoading } from '../../lib/loading';
import { Link } from '../../lib/routing/router';
import { AccountFields } from '../../components/account-fields/account-fields';
import { TextField } from '../../components/text-field/text-field';

const blank: UserIdSearchBody = { firstName: '', lastName: '', email: '' };

/** Forgot User ID (/forgot-user-id): first name, last name and email find the account's username. */
export function ForgotUserIdPage() {
  const [found, setFound] = useState<AccountSummary | undefined>();
  return (
    <>
      <h1 className="page-title">Forgot User ID</h1>
      <div className="row">
        <div className="col-lg-8 col-xl-6">
          {found ? (
            <FoundUser user={found} onCancel={() => setFound(undefined)} />
          ) : (
            <SearchForm onFound={setFound} />
          )}
        </div>
      </div>
    </>
  );
}

function SearchForm({ onFound }: { onFound: (user: AccountSummary) => void }) {
  const { register, handleSubmit, formState } = useForm({
    resolver: zodResolver(userIdSearchBody),
    mode: 'onTouched',
    defaultValues: blank,
  });
  const { errors, isValid, touchedFields, isDirty } = formState;
  const isTouched = isDirty || Object.keys(touchedFields).length > 0;
  const [notFound, setNotFound] = useState<string | undefined>();
  const search = useMutation({
    mutationFn: (body: UserIdSearchBody) => withLoading(() => callEndpoint(calls.searchUserId, { body })),
    onMutate: () => setNotFound(undefined),
    onSuccess: (result) => {
      if (result.isValid && result.user) onFound(result.user);
      else setNotFound(result.invalidReason ?? recoveryMessages.userNotFound);
    },
  });
  const problem = notFound ?? (search.error ? search.error.message || UNKNOWN_ERROR : undefined);
  const canSearch = isTouched && isValid && !search.isPending;

  // handleSubmit's promise rejects only if its callback throws; mutate never does (its failure is the mutation's error).
  return (
    <Form
      noValidate
      onSubmit={(event) => void handleSubmit((body) => canSearch && search.mutate(body))(event)}
    >
      <p>Enter your first name, last name and the email address of your account to find your user ID.</p>
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
        error={errors.email?.message}
        {...register('email')}
      />
      {problem && (
        <Alert variant="danger" role="alert">
          {problem}
        </Alert>
      )}
      <div className="d-flex gap-2">
        <Link className="btn btn-secondary" to={routes.home}>
          Cancel
        </Link>
        <Button type="submit" disabled={!canSearch}>
          Next
        </Button>
      </div>
    </Form>
  );
}

/** The spec's 'Found User' view: Cancel goes back to the search, Done leaves for the home page. */
function FoundUser({ user, onCancel }: { user: AccountSummary; onCancel: () => void }) {
  return (
    <>
      <h2 className="h4 mb-3">Found User</h2>
      <p>We found your account. We have also sent your user ID to your email address.</p>
      <AccountFields account={user} idPrefix="found-user" />
      <div className="d-flex gap-2 mt-4">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Link className="btn btn-primary" to={routes.home}>
          Done
        </Link>
      </div>
    </>
  );
}
