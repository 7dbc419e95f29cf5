import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccessChangeResponse, AvailableRole, CurrentRole } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { accessExpiryMessages } from '@pra/contracts/access-expiry';
import * as calls from '@pra/contracts/endpoints/access';
import { callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { queryKeys } from '../../lib/query-keys';

/** Whose access the screen shows, and how the signed-in person relates to them. */
export interface AccessSubject {
  username: string;
  email: string;
  /** A BRM or admin managing another user: changes happen at once instead of becoming requests. */
  isManager: boolean;
}

export function useCurrentAccess(username: string) {
  return useQuery({
    queryKey: queryKeys.currentAccess(username),
    queryFn: ({ signal }) => callEndpoint(calls.getCurrentAccess, { query: { username }, signal }),
    meta: { alertOnError: true },
  });
}

export function usePendingAccess(username: string) {
  return useQuery({
    queryKey: queryKeys.pendingAccess(username),
    queryFn: ({ signal }) => callEndpoint(calls.getPendingAccess, { query: { username }, signal }),
    meta: { alertOnError: true },
  });
}

export function useAvailableRoles(username: string, showAll: boolean) {
  return useQuery({
    queryKey: queryKeys.availableRoles(username, showAll),
    queryFn: ({ signal }) =>
      callEndpoint(calls.getAvailableRoles, {
        query: { username, showAll: showAll ? 'true' : undefined },
        signal,
      }),
    meta: { alertOnError: true },
  });
}

/** The toast for an add or remove answer: partial results name what failed and what succeeded. */
export function changeOutcome(result: AccessChangeResponse, successMessage: string): void {
  if (result.successes.length === 0) showAlert(UNKNOWN_ERROR, 'danger');
  else if (result.errors.length > 0)
    showAlert(accessMessages.partial(result.errors, result.successes), 'danger');
  else showAlert(successMessage, 'success');
}

/** Every change refreshes the user's three lists (and, for oneself, the organizations of the user record). */
function useRefresh(username: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.access(username) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.pendingApprovals }),
    ]);
}

/** Submits the selected roles with the justification. */
export function useRequestRoles(subject: AccessSubject, onDone: () => void) {
  const refresh = useRefresh(subject.username);
  return useMutation({
    mutationFn: ({ roles, justification }: { roles: AvailableRole[]; justification: string }) =>
      withLoading(() =>
        callEndpoint(calls.requestAccess, {
          body: {
            selectedNames: roles.map((role) => role.name),
            justification,
            beneficiaryUsername: subject.username,
            beneficiaryEmail: subject.email,
          },
        }),
      ),
    onSuccess: async (result) => {
      changeOutcome(result, subject.isManager ? accessMessages.rolesAdded : accessMessages.requestSubmitted);
      if (result.successes.length > 0) onDone();
      await refresh();
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
}

/** Removes one current role (a removal request for oneself), with a reason. */
export function useRemoveRole(subject: AccessSubject, onDone: () => void) {
  const refresh = useRefresh(subject.username);
  return useMutation({
    mutationFn: ({ role, reason }: { role: CurrentRole; reason: string }) =>
      withLoading(() =>
        callEndpoint(calls.removeAccess, {
          body: { selectedNames: [role.name], justification: reason, beneficiaryUsername: subject.username },
        }),
      ),
    onSuccess: async (result) => {
      changeOutcome(result, subject.isManager ? accessMessages.roleRemoved : accessMessages.removeSubmitted);
      if (result.successes.length > 0) onDone();
      await refresh();
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
}

/** Cancels a pending request, with a reason. */
export function useCancelPending(subject: AccessSubject, onDone: () => void) {
  const refresh = useRefresh(subject.username);
  return useMutation({
    mutationFn: ({ requestId, reason }: { requestId: string; reason: string }) =>
      withLoading(() => callEndpoint(calls.cancelPendingAccess, { body: { requestId, reason } })),
    onSuccess: async () => {
      showAlert(accessMessages.cancelled, 'success');
      onDone();
      await refresh();
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
}

/** A vendor asks its sponsor to extend one of its roles until a date (an Extend Access request). */
export function useExtendRole(subject: AccessSubject, onDone: () => void) {
  const refresh = useRefresh(subject.username);
  return useMutation({
    mutationFn: (o: { role: CurrentRole; requestedUntil: string; justification: string }) =>
      withLoading(() =>
        callEndpoint(calls.extendAccess, {
          body: { name: o.role.name, requestedUntil: o.requestedUntil, justification: o.justification },
        }),
      ),
    onSuccess: async () => {
      showAlert(accessExpiryMessages.extensionSubmitted, 'success');
      onDone();
      await refresh();
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
}

/** A BRM or admin changes when a managed user's role ends. */
export function useSetRoleEnd(subject: AccessSubject, onDone: () => void) {
  const refresh = useRefresh(subject.username);
  return useMutation({
    mutationFn: (o: { role: CurrentRole; accessEndsOn: string }) =>
      withLoading(() =>
        callEndpoint(calls.setAccessEnd, {
          body: { targetUsername: subject.username, name: o.role.name, accessEndsOn: o.accessEndsOn },
        }),
      ),
    onSuccess: async () => {
      showAlert(accessExpiryMessages.endDateChanged, 'success');
      onDone();
      await refresh();
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
}
