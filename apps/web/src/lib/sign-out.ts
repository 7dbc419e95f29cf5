import { callEndpoint } from '../api/client';
import { navigateAway } from './full-navigation';

/** Ends the session, then leaves for the server's redirect target or the landing page (errors ignored). */
export async function signOut(): Promise<void> {
  let target = `${window.location.origin}/home`;
  try {
    // Made only when the person asks: the endpoint (and the schema library) loads then.
    const { signOut: endpoint } = await import('@pra/contracts/endpoints/session');
    const { redirectTo } = await callEndpoint(endpoint);
    if (redirectTo) target = redirectTo;
  } catch {
    // The spec ignores logout failures: the browser still leaves for the landing page.
  }
  navigateAway(target);
}
