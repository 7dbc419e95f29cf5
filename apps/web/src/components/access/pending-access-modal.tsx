import type { PendingAccessItem, PendingAccessRequest } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { ReasonListModal, useReasonChoice } from './reason-list-modal';
import { useCancelPending, usePendingAccess, type AccessSubject } from './use-access';

interface PendingAccessModalProps {
  subject: AccessSubject;
  show: boolean;
  onClose: () => void;
}

/** What an item asks: "{Org}: extend until {date}" for an extension, else the organization. */
function asked(item: PendingAccessItem): string {
  return item.operation === 'Extend' && item.requestedUntilOn
    ? `${item.display}: extend until ${item.requestedUntilOn}`
    : item.display;
}

/** What a pending request asks, e.g. 'Add Acme Imaging, Remove Globex Health IT'. */
function describe(request: PendingAccessRequest): string {
  return request.items
    .map((item) => (item.operation === 'Extend' ? asked(item) : `${item.operation} ${item.display}`))
    .join(', ');
}

/** GOVERNANCE.md §5.2: "Submitted {date} · approvers reminded {date} · expires {date}". */
function routingLine(item: PendingAccessItem): string {
  return [
    `Submitted ${item.submittedOn}`,
    ...(item.remindedOn ? [`approvers reminded ${item.remindedOn}`] : []),
    `expires ${item.expiresOn}`,
  ].join(' · ');
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
              {asked(item)}
              <span className="text-body-secondary small"> — requested by {item.owner}</span>
              <div className="text-body-secondary small">{routingLine(item)}</div>
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
