/** Spec section 9: warn under 180 s, check every second, time out 1 s after expiry. */
export const SESSION_WARNING_SECONDS = 180;
export const SESSION_CHECK_INTERVAL_MS = 1000;
const SESSION_TIMEOUT_MARGIN_SECONDS = 1;

export type SessionTimerState =
  { kind: 'active' } | { kind: 'warning'; remaining: string } | { kind: 'expired' };

/** Seconds as mm:ss, never negative. */
export function formatRemaining(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(whole / 60);
  return `${String(minutes).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Where the session stands at `nowMs`: nothing shown above the warning threshold, a countdown
 * under it, and a timeout once expiry is more than the margin in the past.
 */
export function sessionTimerState(expires: string | undefined, nowMs: number): SessionTimerState {
  const expiresMs = expires ? Date.parse(expires) : NaN;
  if (Number.isNaN(expiresMs)) return { kind: 'active' };
  const remaining = (expiresMs - nowMs) / 1000;
  if (remaining > SESSION_WARNING_SECONDS) return { kind: 'active' };
  if (remaining < -SESSION_TIMEOUT_MARGIN_SECONDS) return { kind: 'expired' };
  return { kind: 'warning', remaining: formatRemaining(remaining) };
}
