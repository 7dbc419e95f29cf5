import { logout } from '../api/session-actions';
import { navigateAway } from '../lib/full-navigation';

/** Ends the session, then leaves for the server's redirect target or the landing page (errors ignored). */
export async function signOut(): Promise<void> {
  let target = `${window.location.origin}/home`;
  try {
    const { redirectTo } = await logout();
    if (redirectTo) target = redirectTo;
  } catch {
    // The spec ignores logout failures: the browser still leaves for the landing page.
  }
  navigateAway(target);
}
