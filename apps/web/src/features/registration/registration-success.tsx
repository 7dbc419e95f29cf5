import { Link } from '../../lib/routing/router';
import { routes } from '@pra/contracts/paths';

/** What the page shows once the registration is in: 'Registration Successful' and a Home button. */
export function RegistrationSuccess({ email, isOnBehalf }: { email: string; isOnBehalf: boolean }) {
  return (
    <>
      <h1 className="page-title">Registration Successful</h1>
      {isOnBehalf ? (
        <p>
          The registration for <strong>{email}</strong> has been submitted. The new user will receive an email
          with an activation code and instructions to activate the account.
        </p>
      ) : (
        <p>
          Your registration for <strong>{email}</strong> has been submitted for approval by your
          organization's business relationship manager. Once it is approved you will receive an email with an
          activation code and instructions to activate your account.
        </p>
      )}
      <Link className="btn btn-primary" to={isOnBehalf ? routes.welcome : routes.home}>
        Home
      </Link>
    </>
  );
}
