import { Navigate } from '../../lib/routing/router';
import { routes } from '@pra/contracts/paths';
import { useIsAuthenticated } from '../../lib/use-auth-status';

/** `/`: signed-in people go to welcome, everyone else to the landing page. */
export function RootRedirect() {
  return <Navigate to={useIsAuthenticated() ? routes.welcome : routes.home} replace />;
}
