import type { AuthStatusResponse } from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import { authStatusBody, csrfBody } from './boot-parsers';
import { call } from './client';
import { setCsrfToken } from './csrf-token';

// The boot calls, checked by the hand-written boot parsers (no schema library on the first page);
// every other call goes through callEndpoint with its contract endpoint.

/** GET /api/csrf, keeping the token for later state-changing calls. */
export async function loadCsrfToken(signal?: AbortSignal): Promise<string> {
  const { csrfToken } = await call(csrfBody, { method: 'get', url: api.csrf, signal });
  setCsrfToken(csrfToken);
  return csrfToken;
}

/** GET /api/saml/is-authenticated */
export function getAuthStatus(signal?: AbortSignal): Promise<AuthStatusResponse> {
  return call(authStatusBody, { method: 'get', url: api.isAuthenticated, signal });
}
