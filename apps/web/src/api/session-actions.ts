import type { ExtendSessionResponse, LogoutResponse } from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import { extendSessionResponse, logoutResponse } from '@pra/contracts/session';
import { call } from './client';

/** POST /api/user/extend-session */
export function extendSession(): Promise<ExtendSessionResponse> {
  return call(extendSessionResponse, { method: 'post', url: api.extendSession });
}

/** GET /api/saml/logout */
export function logout(): Promise<LogoutResponse> {
  return call(logoutResponse, { method: 'get', url: api.logout });
}
