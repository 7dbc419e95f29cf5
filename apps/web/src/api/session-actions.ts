import {
  api,
  extendSessionResponse,
  logoutResponse,
  type ExtendSessionResponse,
  type LogoutResponse,
} from '@pra/contracts';
import { call } from './client';

/** POST /api/user/extend-session */
export function extendSession(): Promise<ExtendSessionResponse> {
  return call(extendSessionResponse, { method: 'post', url: api.extendSession });
}

/** GET /api/saml/logout */
export function logout(): Promise<LogoutResponse> {
  return call(logoutResponse, { method: 'get', url: api.logout });
}
