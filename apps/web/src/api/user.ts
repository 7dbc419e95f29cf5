import type { CurrentUser } from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import { currentUserBody } from './boot-parsers';
import { call } from './client';

/** GET /api/user: the signed-in person (checked without the schema library, as in the boot data). */
export function getCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  return call(currentUserBody, { method: 'get', url: api.user, signal });
}
