import Button from 'react-bootstrap/Button';
import { useNavigate } from '../../lib/routing/router';
import { routes } from '@pra/contracts/paths';

/** Where a failed SAML sign-in lands. */
export function AuthFailurePage() {
  const navigate = useNavigate();
  return (
    <>
      <h1 className="page-title">Authentication Failure</h1>
      <p>Your login attempt was unsuccessful. Please contact a system administrator if necessary.</p>
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
