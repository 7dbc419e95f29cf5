import type { AuthStatusResponse } from '@pra/contracts';
import type { Session } from './session';

/** The authentication status of a session as the browser sees it. */
export function authStatus(session: Session | null, maxExtensions: number): AuthStatusResponse {
  if (!session?.accountId) return { isAuthenticated: false };
  return {
    isAuthenticated: true,
    expires: session.expiresAt.toISOString(),
    remainingSessionExtentions: Math.max(0, maxExtensions - session.extensionsUsed),
  };
}
