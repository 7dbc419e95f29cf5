import { useState } from 'react';
import { useIsAuthenticated } from '../../lib/use-auth-status';
import { useCurrentUser } from '../../lib/use-current-user';
import { registersOnBehalf } from './organization-choices';
import { RegistrationForm } from './registration-form';
import { RegistrationSuccess } from './registration-success';

/** New User Registration (/new-user): self-registration, or a BRM/admin registering a vendor. */
export function NewUserPage() {
  const isAuthenticated = useIsAuthenticated();
  const { data: fetchedUser } = useCurrentUser();
  // The route's guard waits for the user record of a signed-in visitor, so it is here already.
  const user = isAuthenticated ? fetchedUser : undefined;
  const isOnBehalf = registersOnBehalf(user);
  const [registered, setRegistered] = useState<{
    email: string;
    org: string;
    expiresOn?: string | undefined;
  }>();

  if (registered !== undefined) {
    return <RegistrationSuccess {...registered} isOnBehalf={isOnBehalf} />;
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
          <RegistrationForm
            user={user}
            isOnBehalf={isOnBehalf}
            onRegistered={(email, waiting) => setRegistered({ email, ...waiting })}
          />
        </div>
      </div>
    </>
  );
}
