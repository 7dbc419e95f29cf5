import Button from 'react-bootstrap/Button';
import type { AccountSummary } from '@pra/contracts';
import { loginUrl, routes } from '@pra/contracts/paths';
import { Link } from '../../lib/routing/router';

function UsernameAndEmail({ account }: { account: AccountSummary }) {
  return (
    <dl className="row">
      <dt className="col-sm-3">Username</dt>
      <dd className="col-sm-9">{account.username}</dd>
      <dt className="col-sm-3">Email</dt>
      <dd className="col-sm-9">{account.email}</dd>
    </dl>
  );
}

/** Step 1: arrived with a valid reset code; whose password is about to be reset. */
export function LinkStep({ account, onNext }: { account: AccountSummary; onNext: () => void }) {
  return (
    <>
      <p>Your reset code is valid. You are resetting the password of this account:</p>
      <UsernameAndEmail account={account} />
      <div className="d-flex gap-2 mt-4">
        <Button onClick={onNext}>Next</Button>
      </div>
    </>
  );
}

/** Step 4: the password has changed; sign in with it. */
export function DoneStep({ account }: { account: AccountSummary | undefined }) {
  return (
    <>
      <p>Your password has been changed. Every session of your account has been signed out.</p>
      {account && <UsernameAndEmail account={account} />}
      <a className="btn btn-primary" href={loginUrl(routes.welcome)}>
        Login
      </a>
    </>
  );
}

/** Step 5: the reset link is on its way. */
export function EmailSentStep({ account }: { account: AccountSummary | undefined }) {
  return (
    <>
      <p>
        We have sent a password reset link to{' '}
        {account ? <strong>{account.email}</strong> : 'your email address'}. Open the link in the email before
        it expires (the email says when) to set a new password; it works once.
      </p>
      <p>If the email does not arrive within a few minutes, check your spam folder.</p>
      <Link className="btn btn-primary" to={routes.home}>
        Done
      </Link>
    </>
  );
}
