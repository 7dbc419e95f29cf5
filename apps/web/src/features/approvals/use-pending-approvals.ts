import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Decision, PendingApproval } from '@pra/contracts';
import {
  approvalMessages,
  approveOrDenyBody,
  pendingApprovalsPage,
  type PendingApprovalsQuery,
} from '@pra/contracts/approvals';
import * as calls from '@pra/contracts/endpoints/approvals';
import { ApiError, callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import type { PageParams } from '../../components/data-table/use-server-table';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { queryKeys } from '../../lib/query-keys';
import { decisionLabel } from './decision-labels';

/** One page of the approval tasks the signed-in BRM or admin may see (filtered and sorted by the server). */
export function fetchPendingApprovalsPage(params: PageParams, signal: AbortSignal) {
  return callEndpoint(
    calls.getPendingApprovals,
    { query: params as PendingApprovalsQuery, signal },
    pendingApprovalsPage,
  );
}

/** The item a BRM chose to decide, and how. */
export interface DecisionSelection {
  item: PendingApproval;
  decision: Decision;
}

interface DecisionInput {
  /** Undefined when nothing is selected: the call is refused, never defaulted. */
  selection: DecisionSelection | undefined;
  comment: string;
  /** The Approve dialog's "Access ends on" (YYYY-MM-DD), for items that grant access. */
  accessEndsOn?: string | undefined;
}

const VALIDATION_ERROR = 'Unexpected error occurred during validation';

/** Approves or rejects one item; on success refreshes the list and the welcome badge count. */
export function useDecideApproval(onDecided: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ selection, comment, accessEndsOn }: DecisionInput) => {
      if (!selection) throw new ApiError(approvalMessages.noneSelected, undefined);
      const { item, decision } = selection;
      const body = approveOrDenyBody.safeParse({
        decision,
        requestId: item.requestId,
        workItemId: item.workItemId || undefined,
        comment,
        accessEndsOn: decision === 'APPROVE' && accessEndsOn ? accessEndsOn : undefined,
      });
      if (!body.success) throw new ApiError(VALIDATION_ERROR, undefined);
      return withLoading(() => callEndpoint(calls.approveOrDeny, { body: body.data }));
    },
    onSuccess: async (result, { selection }) => {
      if (!result.success) {
        showAlert(UNKNOWN_ERROR, 'danger');
        return;
      }
      showAlert(decisionLabel(selection?.item.type, selection?.decision).done, 'success');
      onDecided();
      await queryClient.invalidateQueries({ queryKey: queryKeys.pendingApprovals });
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
}
