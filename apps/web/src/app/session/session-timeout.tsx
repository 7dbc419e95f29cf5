import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useLocation } from '../../lib/routing/router';
import { loginUrl } from '@pra/contracts/paths';
import { getAuthStatus } from '../../api/session';
import { queryKeys } from '../../lib/query-keys';
import { signOut } from '../../lib/sign-out';
import { useAuthStatus } from '../../lib/use-auth-status';
import { useExtendSession } from './use-extend-session';
import { useSessionTimer } from './use-session-timer';
import { SESSION_WARNING_SECONDS } from './session-timer';
import { navigateAway } from '../../lib/full-navigation';

/** Said once to screen readers when the banner appears; the ticking countdown itself stays silent. */
const WARNING_ANNOUNCEMENT = `Your session will expire in less than ${SESSION_WARNING_SECONDS / 60} minutes.`;

/** The countdown banner under 180 s and the 'Session Timeout' modal once the session has ended. */
export function SessionTimeout() {
  const { data: auth } = useAuthStatus();
  const state = useSessionTimer(auth?.isAuthenticated ? auth.expires : undefined);
  const extend = useExtendSession();
  const { pathname, search } = useLocation();
  const canExtend = (auth?.remainingSessionExtentions ?? 0) > 0;
  const isExpired = state.kind === 'expired';
  // Extend Session works only while the server still holds the session, so once the countdown
  // says it ended the server is asked again: normally it has ended it (Login Again only); with a
  // browser clock ahead of the server's it may still hold it, and Extend Session is offered too.
  const stillHeld = useQuery({
    queryKey: queryKeys.sessionStillHeld,
    queryFn: ({ signal }) => getAuthStatus(signal),
    enabled: isExpired,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const canExtendEnded =
    stillHeld.data?.isAuthenticated === true && (stillHeld.data.remainingSessionExtentions ?? 0) > 0;

  const handleExtend = () => {
    if (!extend.isPending) extend.mutate();
  };
  const handleLogin = () => navigateAway(loginUrl(pathname + search));

  return (
    <>
      {/* Always present, so the one change (empty → text) is announced; the banner is not a live region. */}
      <p className="visually-hidden" role="status">
        {state.kind === 'warning' ? WARNING_ANNOUNCEMENT : ''}
      </p>
      {state.kind === 'warning' && (
        <div className="alert alert-warning d-flex flex-wrap align-items-center gap-2">
          <span className="me-auto" aria-live="off">
            Your session will expire in <strong>{state.remaining}</strong>.
          </span>
          {canExtend && (
            <Button variant="primary" size="sm" onClick={handleExtend} disabled={extend.isPending}>
              Extend Session
            </Button>
          )}
          <Button variant="outline-dark" size="sm" onClick={() => void signOut()}>
            Logout Now
          </Button>
        </div>
      )}
      <Modal
        show={isExpired}
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
          {/* Login Again is always there, so a failed extension never strands anyone. */}
          {canExtendEnded && (
            <Button variant="outline-primary" onClick={handleExtend} disabled={extend.isPending}>
              Extend Session
            </Button>
          )}
          <Button variant="primary" onClick={handleLogin}>
            Login Again
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
