import type { CurrentRole } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { ReasonListModal, useReasonChoice } from './reason-list-modal';
import { useCurrentAccess, useRemoveRole, type AccessSubject } from './use-access';

interface CurrentAccessModalProps {
  subject: AccessSubject;
  show: boolean;
  onClose: () => void;
}

/** Current Access: the roles held; each may be removed with a reason. */
export function CurrentAccessModal({ subject, show, onClose }: CurrentAccessModalProps) {
  const choice = useReasonChoice<CurrentRole>();
  const remove = useRemoveRole(subject, choice.reset);
  return (
    <ReasonListModal
      title="Current Access"
      show={show}
      onClose={onClose}
      choice={choice}
      list={useCurrentAccess(subject.username)}
      loadingText="Loading current access…"
      emptyText={accessMessages.noCurrent}
      itemKey={(role) => role.name}
      renderItem={(role) => <span>{role.display}</span>}
      actionLabel="Remove"
      actionName={(role) => `Remove ${role.display}`}
      confirm={(role) => (
        <>
          Remove access to <strong>{role.display}</strong>
          {subject.isManager ? ` for ${subject.username}` : ''}?
          {subject.isManager ? '' : ' Your request goes to the organization’s BRMs for approval.'}
        </>
      )}
      submitLabel="Remove Role"
      isSubmitting={remove.isPending}
      onSubmit={(role, reason) => remove.mutate({ role, reason })}
    />
  );
}
