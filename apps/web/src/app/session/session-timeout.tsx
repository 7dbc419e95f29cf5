import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useLocation } from 'react-router';
import { loginUrl } from '@pra/contracts';
import { signOut } from '../sign-out';
import { useAuthStatus } from '../use-auth-status';
import { useExtendSession } from './use-extend-session';
import { useSessionTimer } from './use-session-timer';
import { navigateAway } from '../full-navigation';

/** The countdown banner under 180 s and the 'Session Timeout' modal once the session has ended. */
export function SessionTimeout() {
  const { data: auth } = useAuthStatus();
  const state = useSessionTimer(auth?.isAuthenticated ? auth.expires : undefined);
  const extend = useExtendSession();
  const { pathname, search } = useLocation();
  const canExtend = (auth?.remainingSessionExtentions ?? 0) > 0;

  const handleExtend = () => void extend();
  const handleLogin = () => navigateAway(loginUrl(pathname + search));

  return (
    <>
      {state.kind === 'warning' && (
        <Alert variant="warning" className="d-flex flex-wrap align-items-center gap-2" role="status">
          <span className="me-auto">
            Your session will expire in <strong>{state.remaining}</strong>.
          </span>
          {canExtend && (
            <Button variant="primary" size="sm" onClick={handleExtend}>
              Extend Session
            </Button>
          )}
          <Button variant="outline-dark" size="sm" onClick={() => void signOut()}>
            Logout Now
          </Button>
        </Alert>
      )}
      <Modal
        show={state.kind === 'expired'}
        backdrop="static"
        keyboard={false}
        centered
        aria-labelledby="session-timeout-title"
      >
        <Modal.Header>
          <Modal.Title as="h2" id="session-timeout-title">
            Session Timeout
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>Your session has timed out. You can login again to start a new session.</Modal.Body>
        <Modal.Footer>
          {canExtend ? (
            <Button variant="primary" onClick={handleExtend}>
              Extend Session
            </Button>
          ) : (
            <Button variant="primary" onClick={handleLogin}>
              Login Again
            </Button>
          )}
        </Modal.Footer>
      </Modal>
    </>
  );
}
