import type { ExtendSessionResponse, LogoutResponse } from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import { call } from './client';

// The shared layout's session calls, made only when the person asks: their schemas (and the
// schema library) load then, not with every signed-in page.
const schemas = () => import('@pra/contracts/session');

/** POST /api/user/extend-session */
export async function extendSession(): Promise<ExtendSessionResponse> {
  return call((await schemas()).extendSessionResponse, { method: 'post', url: api.extendSession });
}

/** GET /api/saml/logout */
export async function logout(): Promise<LogoutResponse> {
  return call((await schemas()).logoutResponse, { method: 'get', url: api.logout });
}
