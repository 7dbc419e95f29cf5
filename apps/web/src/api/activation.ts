import type { ActivateBody, ActivateResponse, DecodeResponse } from '@pra/contracts';
import { activateResponse, decodeResponse } from '@pra/contracts/activation';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** POST /api/user/activate/decode: whether an activation code is good, and the account it is for. */
export function decodeActivationCode(claimCode: string, signal?: AbortSignal): Promise<DecodeResponse> {
  return call(decodeResponse, { method: 'post', url: api.activationDecode, data: { claimCode }, signal });
}

/** POST /api/user/activate/activate-with-password */
export function activateWithPassword(body: ActivateBody): Promise<ActivateResponse> {
  return call(activateResponse, { method: 'post', url: api.activate, data: body });
}
