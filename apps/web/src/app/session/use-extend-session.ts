import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sessionMessages } from '@pra/contracts/session-messages';
import { callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { queryKeys } from '../../lib/query-keys';

/**
 * Extends the session; only `success: true` counts, then the auth status is re-read. `isPending`
 * lets the Extend Session buttons refuse a second click, which would use up a second extension.
 */
export function useExtendSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      withLoading(async () => {
        // Made only when the person asks: the endpoint (and the schema library) loads then.
        const { extendSession } = await import('@pra/contracts/endpoints/session');
        const { success } = await callEndpoint(extendSession);
        if (!success) throw new Error(sessionMessages.extendFailed);
        await queryClient.refetchQueries({ queryKey: queryKeys.authStatus });
      }),
    onSuccess: () => showAlert(sessionMessages.extended, 'success'),
    // Whatever went wrong, the spec's one text: the client has already logged the failure.
    onError: () => showAlert(sessionMessages.extendFailed, 'danger'),
  });
}
