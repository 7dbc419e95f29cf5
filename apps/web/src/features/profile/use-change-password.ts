import { useMutation } from '@tanstack/react-query';
import { profileMessages } from '@pra/contracts/plain-texts';
import { ApiError, callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { IncorrectPassword, reauthenticate } from './reauthenticate';

/**
 * Confirms the current password (GET /api/user/auth), then sets the new one. The server's own
 * messages are shown for refusals it explains (policy, last passwords, lockout); anything else is
 * the spec's 'Unexpected error while changing password'.
 */
export function useChangePassword(username: string, onChanged: () => void) {
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) =>
      withLoading(async () => {
        await reauthenticate(username, currentPassword);
        const calls = await import('@pra/contracts/endpoints/profile');
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
