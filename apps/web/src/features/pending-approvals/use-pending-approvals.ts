import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalMessages, approveOrDenyBody, type Decision, type PendingApproval } from '@pra/contracts';
import { approveOrDeny, getPendingApprovals } from '../../api/approvals';
import { ApiError, UNKNOWN_ERROR } from '../../api/client';
import { showAlert } from '../../app/alerts';
import { withLoading } from '../../app/loading';
import { queryKeys } from '../../app/query-keys';

/** The approval tasks the signed-in BRM or admin may see. */
export function usePendingApprovals() {
  return useQuery({
    queryKey: queryKeys.pendingApprovalsList,
    queryFn: ({ signal }) => getPendingApprovals(signal),
    select: (data) => data.pendingApprovals,
    meta: { alertOnError: true },
  });
}

export interface DecisionInput {
  decision: Decision;
  item: PendingApproval | undefined;
  comment: string;
}

export const VALIDATION_ERROR = 'Unexpected error occurred during validation';

/** Approves or rejects one item; on success refreshes the list and the welcome badge count. */
export function useDecideApproval(onDecided: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ decision, item, comment }: DecisionInput) => {
      if (!item) throw new ApiError(approvalMessages.noneSelected, undefined);
      const body = approveOrDenyBody.safeParse({
        decision,
        requestId: item.requestId,
        workItemId: item.workItemId || undefined,
        comment,
      });
      if (!body.success) throw new ApiError(VALIDATION_ERROR, undefined);
      return withLoading(() => approveOrDeny(body.data));
    },
    onSuccess: async (result, { decision }) => {
      if (!result.success) {
        showAlert(UNKNOWN_ERROR, 'danger');
        return;
      }
      showAlert(decision === 'APPROVE' ? approvalMessages.approved : approvalMessages.denied, 'success');
      onDecided();
      await queryClient.invalidateQueries({ queryKey: queryKeys.pendingApprovals });
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
}
