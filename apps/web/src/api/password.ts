import type { PasswordRequirements } from '@pra/contracts';
import { passwordRequirements } from '@pra/contracts/password-policy';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** GET /api/user/auth/password-requirements?username= : the policy the server enforces for that user. */
export function getPasswordRequirements(
  username: string,
  signal?: AbortSignal,
): Promise<PasswordRequirements> {
  return call(passwordRequirements, {
    method: 'get',
    url: api.passwordRequirements,
    params: { username },
    signal,
  });
}
