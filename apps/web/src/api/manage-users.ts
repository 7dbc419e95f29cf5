import type {
  EnableOrDisableBody,
  ManagedUsersResponse,
  ManageUserResponse,
  ResetActivationCodeBody,
  SendOtpEmailBody,
} from '@pra/contracts';
import { manageUserResponse, managedUsersResponse } from '@pra/contracts/manage-users';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** GET /api/brm/users: the vendors the caller manages. */
export function getManagedUsers(signal?: AbortSignal): Promise<ManagedUsersResponse> {
  return call(managedUsersResponse, { method: 'get', url: api.managedUsers, signal });
}

/** POST /api/brm/users/enable-or-disable */
export function enableOrDisableUser(body: EnableOrDisableBody): Promise<ManageUserResponse> {
  return call(manageUserResponse, { method: 'post', url: api.enableOrDisableUser, data: body });
}

/** POST /api/brm/users/send-otp-email */
export function sendOtpEmail(body: SendOtpEmailBody): Promise<ManageUserResponse> {
  return call(manageUserResponse, { method: 'post', url: api.sendOtpEmail, data: body });
}

/** POST /api/brm/users/reset-activation-code (admins) */
export function resetActivationCode(body: ResetActivationCodeBody): Promise<ManageUserResponse> {
  return call(manageUserResponse, { method: 'post', url: api.resetActivationCode, data: body });
}
