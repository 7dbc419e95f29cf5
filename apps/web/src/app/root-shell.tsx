import { Outlet, ScrollRestoration } from 'react-router';
import { AlertToasts } from './alert-toasts';
import { LoadingOverlay } from './loading-overlay';
import { useDocumentTitle } from './route-title';

/** Around every route: page title, toasts and the loading overlay. */
export function RootShell() {
  useDocumentTitle();
  return (
    <>
      <Outlet />
      <AlertToasts />
      <LoadingOverlay />
      <ScrollRestoration />
    </>
  );
}
