import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ManageAccess } from './manage-access';

interface ManageAccessModalProps {
  show: boolean;
  /** The user whose roles a BRM or admin manages. */
  username: string;
  email: string;
  /** Admins may show every active organization's role. */
  canShowAll: boolean;
  onClose: () => void;
}

/** Manage Access for another user, as a modal (opened from Manage Users). Changes take effect at once. */
export function ManageAccessModal({ show, username, email, canShowAll, onClose }: ManageAccessModalProps) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onClose} size="xl" aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5">
          Manage Access for {username}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {show && (
          <ManageAccess
            username={username}
            email={email}
            isManager
            canShowAll={canShowAll}
            onCancel={onClose}
          />
        )}
      </Modal.Body>
    </Modal>
  );
}
