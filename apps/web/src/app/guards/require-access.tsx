import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Navigate, Outlet, useLocation } from '../../lib/routing/router';
import { loginUrl } from '@pra/contracts/paths';
import { useRouteTitle } from '../route-title';
import { useIsAuthenticated } from '../../lib/use-auth-status';
import { useCurrentUser } from '../../lib/use-current-user';
import { decideAccess, type AccessRule } from './access-rules';
import { navigateAway } from '../../lib/full-navigation';

/** Layout route that lets its child routes render only when `rule` allows the current person. */
export function RequireAccess({ rule }: { rule: AccessRule }) {
  const isAuthenticated = useIsAuthenticated();
  const { data: user } = useCurrentUser();
  const decision = decideAccess(rule, { isAuthenticated, user });

  switch (decision.kind) {
    case 'allow':
      return <Outlet />;
    case 'wait':
      return null;
    case 'login':
      return <LoginRedirect />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'notice':
      return <AccessNotice message={decision.message} />;
  }
}

/** The SAML login is a server endpoint, so this is a full browser navigation, not a client route. */
function LoginRedirect() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    navigateAway(loginUrl(pathname + search));
  }, [pathname, search]);
  return null;
}

function AccessNotice({ message }: { message: string }) {
  const title = useRouteTitle();
  return (
    <>
      {title && <h1 className="page-title">{title}</h1>}
      <Alert variant="warning">{message}</Alert>
    </>
  );
}
