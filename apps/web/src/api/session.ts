import {
  api,
  authStatusResponse,
  csrfResponse,
  extendSessionResponse,
  logoutResponse,
  type AuthStatusResponse,
  type ExtendSessionResponse,
  type LogoutResponse,
} from '@pra/contracts';
import { call } from './client';
import { setCsrfToken } from './csrf-token';

/** GET /api/csrf, keeping the token for later state-changing calls. */
export async function loadCsrfToken(signal?: AbortSignal): Promise<string> {
  const { csrfToken } = await call(csrfResponse, { method: 'get', url: api.csrf, signal });
  setCsrfToken(csrfToken);
  return csrfToken;
}

/** GET /api/saml/is-authenticated */
export function getAuthStatus(signal?: AbortSignal): Promise<AuthStatusResponse> {
  return call(authStatusResponse, { method: 'get', url: api.isAuthenticated, signal });
}

/** POST /api/user/extend-session */
export function extendSession(): Promise<ExtendSessionResponse> {
  return call(extendSessionResponse, { method: 'post', url: api.extendSession });
}

/** GET /api/saml/logout */
export function logout(): Promise<LogoutResponse> {
  return call(logoutResponse, { method: 'get', url: api.logout });
}
