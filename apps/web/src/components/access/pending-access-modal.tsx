import type { PendingAccessRequest } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { ReasonListModal, useReasonChoice } from './reason-list-modal';
import { useCancelPending, usePendingAccess, type AccessSubject } from './use-access';

interface PendingAccessModalProps {
  subject: AccessSubject;
  show: boolean;
  onClose: () => void;
}

/** What a pending request asks, e.g. 'Add Acme Imaging, Remove Globex Health IT'. */
function describe(request: PendingAccessRequest): string {
  return request.items.map((item) => `${item.operation} ${item.display}`).join(', ');
}

/** Pending Access Requests: each may be cancelled with a reason. */
export function PendingAccessModal({ subject, show, onClose }: PendingAccessModalProps) {
  const choice = useReasonChoice<PendingAccessRequest>();
  const cancel = useCancelPending(subject, choice.reset);
  return (
    <ReasonListModal
      title="Pending Access Requests"
      show={show}
      onClose={onClose}
      choice={choice}
      list={usePendingAccess(subject.username)}
      loadingText="Loading pending requests…"
      emptyText={accessMessages.noPending}
      itemKey={(request) => request.id}
      renderItem={(request) => (
        <ul className="list-unstyled mb-0">
          {request.items.map((item) => (
            <li key={`${item.operation}-${item.display}`}>
              <span className="badge text-bg-secondary me-2">{item.operation}</span>
              {item.display}
              <span className="text-body-secondary small"> — requested by {item.owner}</span>
            </li>
          ))}
        </ul>
      )}
      actionLabel="Cancel"
      actionName={(request) => `Cancel request ${describe(request)}`}
      confirm={(request) => (
        <>
          Cancel the request <strong>{describe(request)}</strong>?
        </>
      )}
      submitLabel="Cancel Request"
      isSubmitting={cancel.isPending}
      onSubmit={(request, reason) => cancel.mutate({ requestId: request.id, reason })}
    />
  );
}
