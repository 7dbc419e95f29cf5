import { lazy, Suspense } from 'react';
import { useAlerts } from '../lib/alerts';
import { LoadingOverlay } from './loading-overlay';
import { Outlet } from '../lib/routing/router';
import { useFocusOnNavigation } from './route-focus';
import { useDocumentTitle } from './route-title';

// The toasts' code (react-bootstrap's Toast and its transitions) loads with the first toast.
const AlertToasts = lazy(async () => ({ default: (await import('../components/alert-toasts')).AlertToasts }));

/** Around every route: page title, focus after a move, toasts and the loading overlay. */
export function RootShell() {
  useDocumentTitle();
  useFocusOnNavigation();
  const hasAlerts = useAlerts().length > 0;
  return (
    <>
      <Outlet />
      {hasAlerts && (
        <Suspense fallback={null}>
          <AlertToasts />
        </Suspense>
      )}
      <LoadingOverlay />
    </>
  );
}
