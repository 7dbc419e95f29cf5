import { useMutation } from '@tanstack/react-query';
import { profileMessages, reauthenticateHeaders } from '@pra/contracts/plain-texts';
import { ApiError, callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';

/** A wrong current password, as the form reports it. */
class IncorrectPassword extends Error {}

/**
 * Confirms the current password (GET /api/user/auth), then sets the new one. The server's own
 * messages are shown for refusals it explains (policy, last passwords, lockout); anything else is
 * the spec's 'Unexpected error while changing password'.
 */
export function useChangePassword(username: string, onChanged: () => void) {
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) =>
      withLoading(async () => {
        // The calls' definitions (and the schema library) load when someone submits, not with the page.
        const calls = await import('@pra/contracts/endpoints/profile');
        const confirmed = await callEndpoint(calls.reauthenticate, {
          headers: {
            [reauthenticateHeaders.username]: username,
            [reauthenticateHeaders.password]: currentPassword,
          },
        });
        if (confirmed.authentication !== 'success') throw new IncorrectPassword();
        return callEndpoint(calls.changePassword, { body: { newPassword } });
      }),
    onSuccess: (result) => {
      if (!result.success) {
        showAlert(profileMessages.unexpected, 'danger');
        return;
      }
      showAlert(profileMessages.changed, 'success');
      onChanged();
    },
    onError: (error) => {
      if (error instanceof IncorrectPassword) showAlert(profileMessages.incorrect, 'danger');
      else if (error instanceof ApiError && (error.status === 400 || error.status === 429)) {
        showAlert(error.message, 'danger');
      } else showAlert(profileMessages.unexpected, 'danger');
    },
  });
}
