import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { AdminPerson } from '@pra/contracts';

/** A right ticked or unticked on People, waiting for the admin's confirmation. */
export interface RightsChange {
  right: 'isEmployeeBrm' | 'isAdmin' | 'isAuditor';
  grant: boolean;
}

/** What the change does, in the words the confirmation shows. */
export function describeRightsChange(person: AdminPerson, change: RightsChange) {
  const who = person.username;
  const orgs = person.organizations.length ? person.organizations.join(', ') : 'no organization yet';
  if (change.right === 'isEmployeeBrm') {
    return change.grant
      ? {
          title: `Make ${who} a BRM?`,
          text: `As a BRM, ${who} approves or denies the registrations and access requests of the organizations they manage (${orgs}), manages their vendor users and can terminate vendors.`,
          action: 'Make BRM',
        }
      : {
          title: `Remove the BRM rights of ${who}?`,
          text: `${who} will no longer approve or deny requests, manage vendor users or terminate vendors for ${orgs}.`,
          action: 'Remove BRM rights',
        };
  }
  if (change.right === 'isAuditor') {
    return change.grant
      ? {
          title: `Make ${who} an auditor?`,
          text: `As an auditor, ${who} can see what their other rights show (Administration, reports, the audit trail) but change nothing: every change they try is refused and recorded.`,
          action: 'Make auditor',
        }
      : {
          title: `Let ${who} make changes again?`,
          text: `${who} will no longer be read-only: their BRM and admin rights will let them make changes again.`,
          action: 'Remove auditor flag',
        };
  }
  return change.grant
    ? {
        title: `Make ${who} an admin?`,
        text: `As an admin, ${who} can use Administration (organizations, people and their rights, the system message, maintenance, mail and the audit trail) and manage every vendor user.`,
        action: 'Make admin',
      }
    : {
        title: `Remove the admin rights of ${who}?`,
        text: `${who} will no longer reach Administration or manage vendor users outside their own organizations.`,
        action: 'Remove admin rights',
      };
}

interface RightsConfirmationProps {
  person: AdminPerson;
  change: RightsChange | undefined;
  onConfirm: (change: RightsChange) => void;
  onCancel: () => void;
}

/** Asks before a BRM or admin right is granted or removed, saying what it grants or removes. */
export function RightsConfirmation({ person, change, onConfirm, onCancel }: RightsConfirmationProps) {
  const words = change ? describeRightsChange(person, change) : undefined;
  return (
    <Modal show={change !== undefined} onHide={onCancel} centered aria-labelledby={`rights-${person.id}`}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={`rights-${person.id}`} as="h2" className="h5">
          {words?.title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{words?.text}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={change?.grant ? 'primary' : 'danger'} onClick={() => change && onConfirm(change)}>
          {words?.action}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
