import Button from 'react-bootstrap/Button';
import { useNavigate, useSearchParams } from '../../lib/routing/router';
import { routes } from '@pra/contracts/paths';

/** Why a sign-in failed, when the person can do something about it (`?reason=`). */
const reasons: Record<string, string> = {
  'authn-context':
    'Your identity provider signed you in without the multi-factor authentication this portal requires. Sign in again and complete the second step your identity provider asks for; if it asks for none, contact your IT service desk.',
};

/** Where a failed SAML sign-in lands. */
export function AuthFailurePage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const reason = reasons[search.get('reason') ?? ''];
  return (
    <>
      <h1 className="page-title">Authentication Failure</h1>
      <p>Your login attempt was unsuccessful. Please contact a system administrator if necessary.</p>
      {reason && <p data-testid="auth-failure-reason">{reason}</p>}
      <div className="d-flex gap-2">
        <Button variant="secondary" onClick={() => void navigate(-1)}>
          Go Back
        </Button>
        <Button variant="primary" onClick={() => void navigate(routes.root)}>
          Home
        </Button>
      </div>
    </>
  );
}
