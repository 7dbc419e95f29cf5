import Alert from 'react-bootstrap/Alert';
import type { EmailInUseResult } from '@pra/contracts';
import { loginUrl, routes } from '@pra/contracts/paths';
import { registrationMessages } from '@pra/contracts/registration';

/** The warning below the email when it cannot register; self-registrants may log in instead. */
export function EmailStatusAlert({
  status,
  isOnBehalf,
}: {
  status: EmailInUseResult | undefined;
  isOnBehalf: boolean;
}) {
  if (status === 'pendingApproval') {
    return (
      <Alert variant="warning" className="mt-2 mb-0">
        {registrationMessages.pending}
      </Alert>
    );
  }
  if (status !== 'activeAccount') return null;
  if (isOnBehalf) {
    return (
      <Alert variant="warning" className="mt-2 mb-0">
        {registrationMessages.emailInUseAdmin}
      </Alert>
    );
  }
  return (
    <Alert variant="warning" className="mt-2 mb-0">
      <p className="mb-2">{registrationMessages.emailInUse}</p>
      {/* Dark on the warning's yellow: blue outline text there is below 4.5:1 contrast. */}
      <a className="btn btn-outline-dark btn-sm" href={loginUrl(routes.welcome)}>
        Login with Existing Account
      </a>
    </Alert>
  );
}
