import type { CurrentUser } from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import { currentUser } from '@pra/contracts/user';
import { call } from './client';

/** GET /api/user: the signed-in person. */
export function getCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  return call(currentUser, { method: 'get', url: api.user, signal });
}
