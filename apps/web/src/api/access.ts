import type {
  AccessChangeResponse,
  AccessRequestBody,
  AvailableRole,
  CancelPendingBody,
  CancelPendingResponse,
  CurrentRole,
  PendingAccessRequest,
  RemoveAccessBody,
} from '@pra/contracts';
import {
  accessChangeResponse,
  availableRolesResponse,
  cancelPendingResponse,
  currentAccessResponse,
  pendingAccessResponse,
} from '@pra/contracts/access';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** GET /api/vendor/access/current?username= */
export function getCurrentAccess(username: string, signal?: AbortSignal): Promise<CurrentRole[]> {
  return call(currentAccessResponse, { method: 'get', url: api.currentAccess, params: { username }, signal });
}

/** GET /api/vendor/access/pending?username= */
export function getPendingAccess(username: string, signal?: AbortSignal): Promise<PendingAccessRequest[]> {
  return call(pendingAccessResponse, { method: 'get', url: api.pendingAccess, params: { username }, signal });
}

/** GET /api/vendor/roles?username= (admins may add showAll=true) */
export function getAvailableRoles(
  username: string,
  showAll: boolean,
  signal?: AbortSignal,
): Promise<AvailableRole[]> {
  return call(availableRolesResponse, {
    method: 'get',
    url: api.availableRoles,
    params: { username, showAll: showAll ? 'true' : undefined },
    signal,
  });
}

/** POST /api/vendor/access/request: answers the roles that failed and those that succeeded. */
export function requestAccess(body: AccessRequestBody): Promise<AccessChangeResponse> {
  return call(accessChangeResponse, {
    method: 'post',
    url: api.requestAccess,
    data: body,
    partialResults: true,
  });
}

/** POST /api/vendor/access/current/cancel: removal of current roles. */
export function removeAccess(body: RemoveAccessBody): Promise<AccessChangeResponse> {
  return call(accessChangeResponse, {
    method: 'post',
    url: api.removeAccess,
    data: body,
    partialResults: true,
  });
}

/** POST /api/vendor/access/pending/cancel */
export function cancelPendingAccess(body: CancelPendingBody): Promise<CancelPendingResponse> {
  return call(cancelPendingResponse, { method: 'post', url: api.cancelPendingAccess, data: body });
}
