import type { CurrentRole } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { accessExpiryMessages } from '@pra/contracts/access-expiry';
import { ReasonListModal, useReasonChoice } from './reason-list-modal';
import { useCurrentAccess, useRemoveRole, type AccessSubject } from './use-access';

interface CurrentAccessModalProps {
  subject: AccessSubject;
  show: boolean;
  onClose: () => void;
  /** Opens the end-date dialog for a role: "Request extension" (vendor) or "Change end date" (manager). */
  onEndDate: (role: CurrentRole) => void;
}

/** When the role ends and who sponsors it (GOVERNANCE.md §3.2: "Access ends", "Sponsor"). */
function RoleTerms({ role }: { role: CurrentRole }) {
  if (!role.endsOn) return null;
  const soon = (role.daysLeft ?? 0) < 7;
  return (
    <>
      <dl className="current-access-terms small mb-0">
        <div>
          <dt>Access ends</dt>
          <dd className={soon ? 'text-danger fw-semibold' : undefined}>
            {role.endsOn} ({role.daysLeft === 1 ? '1 day' : `${role.daysLeft ?? 0} days`})
          </dd>
        </div>
        <div>
          <dt>Sponsor</dt>
          <dd>{role.sponsor ? role.sponsor.name || role.sponsor.email : accessExpiryMessages.noSponsor}</dd>
        </div>
      </dl>
      {role.extensionPending && <span className="badge text-bg-info">Extension pending</span>}
    </>
  );
}

/**
 * Current Access: the roles held with when each ends and its sponsor; each may be removed with a
 * reason, and its end asked to be extended (a vendor) or changed (a manager).
 */
export function CurrentAccessModal({ subject, show, onClose, onEndDate }: CurrentAccessModalProps) {
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
      renderItem={(role) => (
        <div>
          <span>{role.display}</span>
          <RoleTerms role={role} />
        </div>
      )}
      secondAction={(role) => {
        if (!role.endsOn) return null;
        if (subject.isManager)
          return {
            label: 'Change end date',
            name: `Change end date of ${role.display}`,
            onClick: () => onEndDate(role),
          };
        if (role.extensionPending) return null;
        return {
          label: 'Request extension',
          name: `Request extension for ${role.display}`,
          onClick: () => onEndDate(role),
        };
      }}
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
