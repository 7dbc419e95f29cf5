import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { signInMethodLabels, type ManagedUser } from '@pra/contracts';

// Dormant accounts in Manage Users (GOVERNANCE.md §6.2): why a disabled account is disabled (the
// Status cell's tooltip and View Details, with the last sign-in), and the re-enable question for
// an account disabled for inactivity.

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);

/** "inactive since {date}", "no access left", "departure reported", "disabled by a manager". */
export function reasonText(user: ManagedUser): string | undefined {
  if (user.status !== 'disabled' || !user.disabledReason) return undefined;
  switch (user.disabledReason) {
    case 'inactive':
      return `inactive since ${day(user.lastSignInAt) ?? day(user.disabledAt) ?? 'never signed in'}`;
    case 'noAccess':
      return 'no access left';
    case 'departureReported':
      return 'departure reported';
    case 'manual':
      return 'disabled by a manager';
  }
}

export function UserDetailsModal({ user, onClose }: { user: ManagedUser; onClose: () => void }) {
  const reason = reasonText(user);
  return (
    <Modal show onHide={onClose} centered aria-labelledby="user-details-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="user-details-title" as="h2" className="h5">
          User Details
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <dl className="row mb-0">
          <dt className="col-sm-4">Name</dt>
          <dd className="col-sm-8">
            {user.givenName} {user.familyName}
          </dd>
          <dt className="col-sm-4">Username</dt>
          <dd className="col-sm-8">{user.username}</dd>
          <dt className="col-sm-4">Email</dt>
          <dd className="col-sm-8">{user.email}</dd>
          <dt className="col-sm-4">Status</dt>
          <dd className="col-sm-8">
            {user.status === 'pendingActivation'
              ? 'Pending activation'
              : user.active
                ? 'Enabled'
                : 'Disabled'}
            {reason && ` (${reason})`}
            {user.signInDueBy && ` (sign-in due by ${user.signInDueBy})`}
          </dd>
          <dt className="col-sm-4">Last sign-in</dt>
          <dd className="col-sm-8">{day(user.lastSignInAt) ?? 'Never'}</dd>
          {user.signInMethod && (
            <>
              <dt className="col-sm-4">Sign-in method</dt>
              <dd className="col-sm-8">{signInMethodLabels[user.signInMethod]}</dd>
            </>
          )}
        </dl>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

/** "Re-enable {name}? They must sign in within 90 days or the account is disabled again." */
export function ReenableModal(p: { user: ManagedUser; onConfirm: () => void; onCancel: () => void }) {
  const name = `${p.user.givenName} ${p.user.familyName}`.trim() || p.user.username;
  return (
    <Modal show onHide={p.onCancel} centered aria-labelledby="reenable-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="reenable-title" as="h2" className="h5">
          Enable User
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">
          Re-enable {name}? They must sign in within 90 days or the account is disabled again.
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={p.onCancel}>
          Cancel
        </Button>
        <Button variant="primary" onClick={p.onConfirm}>
          Enable User
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
