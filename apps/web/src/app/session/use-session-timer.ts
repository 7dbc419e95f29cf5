import { useEffect, useState } from 'react';
import { SESSION_CHECK_INTERVAL_MS, sessionTimerState, type SessionTimerState } from './session-timer';

/** Re-evaluates the session's remaining time every second while `expires` is known. */
export function useSessionTimer(expires: string | undefined): SessionTimerState {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!expires) return;
    const id = window.setInterval(() => setNow(Date.now()), SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(id);
  }, [expires]);
  return sessionTimerState(expires, now);
}
