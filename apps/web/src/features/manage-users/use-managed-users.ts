import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser } from '@pra/contracts';
import {
  managedUsersPage,
  manageUsersMessages as m,
  type ManagedUsersQuery,
} from '@pra/contracts/manage-users';
import * as calls from '@pra/contracts/endpoints/manage-users';
import { callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import type { PageParams } from '../../components/data-table/use-server-table';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { queryKeys } from '../../lib/query-keys';

/** One page of the vendors the signed-in BRM or admin manages (filtered and sorted by the server). */
export function fetchManagedUsersPage(params: PageParams, signal: AbortSignal) {
  return callEndpoint(
    calls.getManagedUsers,
    { query: params as ManagedUsersQuery, signal },
    managedUsersPage,
  );
}

/** The one-by-one actions of the Actions dropdown. */
export type UserAction = 'toggle' | 'sendOtp' | 'resetActivation';

async function run(action: UserAction, user: ManagedUser): Promise<string> {
  switch (action) {
    case 'toggle': {
      const enable = !user.active;
      const result = await callEndpoint(calls.enableOrDisableUser, {
        body: { enable, targetUsername: user.username },
      });
      if (!result.success) throw new Error(UNKNOWN_ERROR);
      return enable ? m.enabled(user.username) : m.disabled(user.username);
    }
    case 'sendOtp': {
      const result = await callEndpoint(calls.sendOtpEmail, {
        body: { email: user.email, username: user.username },
      });
      if (!result.success) throw new Error(UNKNOWN_ERROR);
      return m.resetSent;
    }
    case 'resetActivation': {
      const result = await callEndpoint(calls.resetActivationCode, { body: { username: user.username } });
      if (!result.success) throw new Error(UNKNOWN_ERROR);
      return m.activationReset;
    }
  }
}

/** Runs one action on one user, shows the spec's message, and reloads the list. */
export function useUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, user }: { action: UserAction; user: ManagedUser }) =>
      withLoading(() => run(action, user)),
    onSuccess: async (message) => {
      showAlert(message, 'success');
      await queryClient.invalidateQueries({ queryKey: queryKeys.managedUsers });
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
}
