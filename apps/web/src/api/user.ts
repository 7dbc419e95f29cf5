import { api, currentUser, type CurrentUser } from '@pra/contracts';
import { call } from './client';

/** GET /api/user: the signed-in person. */
export function getCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  return call(currentUser, { method: 'get', url: api.user, signal });
}
