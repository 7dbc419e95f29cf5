import { reauthenticateHeaders } from '@pra/contracts/plain-texts';
import { callEndpoint } from '../../api/client';

/** A wrong current password, as the profile's forms report it. */
export class IncorrectPassword extends Error {}

/**
 * Confirms the current password (GET /api/user/auth): a right one marks the session
 * re-authenticated for five minutes, which the profile's sensitive changes need.
 */
export async function reauthenticate(username: string, currentPassword: string): Promise<void> {
  // The calls' definitions (and the schema library) load when someone submits, not with the page.
  const calls = await import('@pra/contracts/endpoints/profile');
  const confirmed = await callEndpoint(calls.reauthenticate, {
    headers: {
      [reauthenticateHeaders.username]: username,
      [reauthenticateHeaders.password]: currentPassword,
    },
  });
  if (confirmed.authentication !== 'success') throw new IncorrectPassword();
}
