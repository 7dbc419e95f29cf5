import { useState } from 'react';
import { useLocation } from 'react-router';
import { currentUser } from '@pra/contracts';
import { useIsAuthenticated } from '../../app/use-auth-status';
import { useCurrentUser } from '../../app/use-current-user';
import { registersOnBehalf } from './organization-choices';
import { RegistrationForm } from './registration-form';
import { RegistrationSuccess } from './registration-success';

/** The registrant passed by the welcome page's New User card, if it is a well-formed user record. */
function userFromNavigation(state: unknown) {
  const candidate = (state as { currentUser?: unknown } | null)?.currentUser;
  const parsed = currentUser.safeParse(candidate);
  return parsed.success ? parsed.data : undefined;
}

/** New User Registration (/new-user): self-registration, or a BRM/admin registering a vendor. */
export function NewUserPage() {
  const isAuthenticated = useIsAuthenticated();
  const { data: fetchedUser } = useCurrentUser();
  const { state } = useLocation();
  // The fetched record wins; navigation state only helps while it loads, and never for anonymous visitors.
  const user = isAuthenticated ? (fetchedUser ?? userFromNavigation(state)) : undefined;
  const isOnBehalf = registersOnBehalf(user);
  const [registeredEmail, setRegisteredEmail] = useState<string>();

  if (registeredEmail !== undefined) {
    return <RegistrationSuccess email={registeredEmail} isOnBehalf={isOnBehalf} />;
  }
  return (
    <>
      <h1 className="page-title">New User Registration</h1>
      <p>
        {isOnBehalf
          ? 'Register a vendor user on behalf of one of your organizations.'
          : "Register for a PRA Portal account. Your request is reviewed by your organization's business relationship manager."}
      </p>
      <div className="row">
        <div className="col-lg-8 col-xl-6">
          <RegistrationForm user={user} onRegistered={setRegisteredEmail} />
        </div>
      </div>
    </>
  );
}
