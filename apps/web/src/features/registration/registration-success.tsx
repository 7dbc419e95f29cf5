import { Link } from '../../lib/routing/router';
import { routes } from '@pra/contracts/paths';

/** A YYYY-MM-DD calendar date as "March 15, 2027" (the date itself, whatever the browser's zone). */
const longDate = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** What the page shows once the registration is in: 'Registration Successful' and a Home button. */
export function RegistrationSuccess({
  email,
  isOnBehalf,
  org,
  expiresOn,
}: {
  email: string;
  isOnBehalf: boolean;
  org?: string | undefined;
  /** The hospital's calendar date (YYYY-MM-DD) the registration expires undecided (approval routing). */
  expiresOn?: string | undefined;
}) {
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
      {!isOnBehalf && org && expiresOn && (
        <p>
          Your request is waiting for approval by {org}. If it is not decided by {longDate(expiresOn)} it will
          expire and you can register again.
        </p>
      )}
      <Link className="btn btn-primary" to={isOnBehalf ? routes.welcome : routes.home}>
        Home
      </Link>
    </>
  );
}
