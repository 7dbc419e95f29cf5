import type { ChangePasswordBody, ChangePasswordResponse, ReauthenticateResponse } from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import {
  changePasswordResponse,
  reauthenticateHeaders,
  reauthenticateResponse,
} from '@pra/contracts/profile';
import { call } from './client';

/** GET /api/user/auth: confirms the signed-in account's current password (sent as headers). */
export function reauthenticate(username: string, password: string): Promise<ReauthenticateResponse> {
  return call(reauthenticateResponse, {
    method: 'get',
    url: api.reauthenticate,
    headers: { [reauthenticateHeaders.username]: username, [reauthenticateHeaders.password]: password },
  });
}

/** POST /api/user/auth/change-password: only shortly after a successful `reauthenticate`. */
export function changePassword(body: ChangePasswordBody): Promise<ChangePasswordResponse> {
  return call(changePasswordResponse, { method: 'post', url: api.changePassword, data: body });
}
