import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { ManagedUser } from '@pra/contracts';
import { manageUsersMessages as m } from '@pra/contracts/manage-users';
import * as calls from '@pra/contracts/endpoints/manage-users';
import { callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { queryKeys } from '../../lib/query-keys';
import { siteLinks } from '../../lib/site-links';

// Manage Users → Reset Sign-in Methods (GOVERNANCE.md §7.3): an admin removes a vendor's security
// keys and authenticator apps after checking who asks; a BRM drafts a mail asking InfoSec to.

/** The vendor as the dialog names them: first and last name, else the username. */
export const personOf = (user: ManagedUser) => `${user.givenName} ${user.familyName}`.trim() || user.username;

/** "Ask InfoSec to reset": a mail draft to InfoSec naming the vendor (the BRM adds what they know). */
export function askInfosecHref(user: ManagedUser): string {
  const name = personOf(user);
  const subject = `Reset sign-in methods of ${user.username}`;
  const body =
    `Please reset the sign-in methods (security keys and authenticator apps) of ${name} ` +
    `(username ${user.username}, ${user.email}).\n\n` +
    'Why: \nHow I know it is them: \n';
  return `mailto:${siteLinks.infosecEmail}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/**
 * The admin's dialog. The identity check is a checkbox the admin ticks; for an account an
 * organization requires to use a key it must be ticked (the server refuses otherwise) and the
 * account gets a new activation code.
 */
export function ResetSignInMethodsModal({ user, onClose }: { user: ManagedUser; onClose: () => void }) {
  const id = useId();
  const name = personOf(user);
  const required = user.keyRequired === true;
  const [verified, setVerified] = useState(false);
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: () =>
      withLoading(() =>
        callEndpoint(calls.resetSignInMethods, {
          body: { username: user.username, identityVerified: verified },
        }),
      ),
    onSuccess: async (result) => {
      if (!result.success) {
        showAlert(UNKNOWN_ERROR, 'danger');
        return;
      }
      showAlert(m.signInMethodsReset(user.username), 'success');
      onClose();
      await queryClient.invalidateQueries({ queryKey: queryKeys.managedUsers });
    },
  });
  const canReset = (!required || verified) && !reset.isPending;
  return (
    <Modal show onHide={onClose} centered aria-labelledby={`${id}-title`}>
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (canReset) reset.mutate();
        }}
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            Reset Sign-in Methods
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{m.resetSignInMethodsText(name)}</p>
          {required && <p>{m.newActivationCodeNote(name)}</p>}
          <Form.Check
            id={`${id}-verified`}
            type="checkbox"
            label={m.identityVerified(name)}
            checked={verified}
            onChange={(event) => setVerified(event.target.checked)}
            required={required}
            aria-describedby={required && !verified ? `${id}-needed` : undefined}
          />
          {required && !verified && (
            <Form.Text id={`${id}-needed`} className="d-block">
              Required for this account.
            </Form.Text>
          )}
          {reset.isError && (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {failureMessage(reset.error, UNKNOWN_ERROR)}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!canReset}>
            Reset Sign-in Methods
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
