import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { extendSession } from '../../api/session';
import { showAlert } from '../alerts';
import { withLoading } from '../loading';
import { queryKeys } from '../query-keys';

export const EXTEND_FAILED = 'Unexpected error occurred while extending session';

/** Extends the session; only `success: true` counts, then the auth status is re-read. */
export function useExtendSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const extended = await withLoading(async () => {
      const { success } = await extendSession();
      if (success) await queryClient.refetchQueries({ queryKey: queryKeys.authStatus });
      return success;
    }).catch(() => false);
    if (extended) showAlert('Session extended', 'success');
    else showAlert(EXTEND_FAILED, 'danger');
  }, [queryClient]);
}
