import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import './acceptable-use-policy.css';

export const POLICY_TITLE = 'Acceptable Use Policy';

/**
 * The policy every vendor accepts before registering and again when activating an account.
 * Plain text kept here so registration and activation show the same words. Its sub-headings are
 * h3: both places show it under an h2 (the dialog title, the wizard step).
 */
export function AcceptableUsePolicyText() {
  return (
    <div className="acceptable-use-policy">
      <p>
        The Privileged Remote Access (PRA) service lets approved vendor staff connect to the hospital's
        clinical and business systems to install, support and maintain the products the hospital has bought
        from them. These systems hold patient information and keep patient care running. By using the service
        you agree to the following.
      </p>
      <h3 className="h6">Authorized use only</h3>
      <ul>
        <li>
          Use your access only for work the hospital has asked for or approved, on the systems your
          organization supports, and only for as long as that work needs.
        </li>
        <li>
          Do not look at, copy, download, print, change or delete patient or hospital information unless the
          approved task requires it; never take it off the hospital's systems.
        </li>
        <li>Do not try to reach systems, accounts or data you have not been given access to.</li>
      </ul>
      <h3 className="h6">Your account is yours alone</h3>
      <ul>
        <li>
          Your account, password and multi-factor device are personal. Never share them, write down your
          password, or let anyone else work in your session.
        </li>
        <li>Lock or end your session whenever you step away, and log out when the work is done.</li>
        <li>Tell PRA support at once if you suspect your credentials or device are lost or compromised.</li>
      </ul>
      <h3 className="h6">Protecting the systems</h3>
      <ul>
        <li>
          Connect only from devices your organization manages, with current security updates and anti-malware
          protection.
        </li>
        <li>
          Do not install software, change configurations or transfer files unless the approved task requires
          it and the hospital's change procedures allow it.
        </li>
        <li>Do not disable, bypass or test security controls.</li>
      </ul>
      <h3 className="h6">Monitoring and consequences</h3>
      <ul>
        <li>
          Sessions are logged and may be recorded and reviewed. There is no expectation of privacy when using
          the service.
        </li>
        <li>
          Misuse may lead to immediate removal of access, notification of your employer, termination of the
          vendor's contract, and action under privacy and computer-misuse laws.
        </li>
        <li>
          Your organization must tell the hospital promptly when you no longer need access, for example when
          you change role or leave.
        </li>
      </ul>
    </div>
  );
}

/** The policy in a dialog (registration shows it from a link beside the agree checkbox). */
export function AcceptableUsePolicyModal({ show, onHide }: { show: boolean; onHide: () => void }) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onHide} size="lg" scrollable aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5">
          {POLICY_TITLE}
        </Modal.Title>
      </Modal.Header>
      {/* The body scrolls: focusable and named, so keyboard users can scroll it too. */}
      <Modal.Body tabIndex={0} role="region" aria-label={`${POLICY_TITLE} text`}>
        <AcceptableUsePolicyText />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
