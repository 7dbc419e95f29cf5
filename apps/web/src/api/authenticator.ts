import type {
  AuthenticatorAnswerBody,
  AuthenticatorStatus,
  PairAuthenticatorBody,
  PairAuthenticatorResponse,
  SuccessResponse,
} from '@pra/contracts';
import {
  authenticatorAnswerResponse,
  authenticatorStatus,
  pairAuthenticatorResponse,
} from '@pra/contracts/recovery';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** POST /api/user/authenticator/pair: the signed-in account pairs a phone; answers the QR code. */
export function pairAuthenticator(body: PairAuthenticatorBody): Promise<PairAuthenticatorResponse> {
  return call(pairAuthenticatorResponse, { method: 'post', url: api.authenticatorPair, data: body });
}

/** POST /api/authenticator/status: the paired phone's pending requests and current passcode. */
export function authenticatorStatusOf(deviceKey: string, signal?: AbortSignal): Promise<AuthenticatorStatus> {
  return call(authenticatorStatus, {
    method: 'post',
    url: api.authenticatorStatus,
    data: { deviceKey },
    signal,
  });
}

/** POST /api/authenticator/answer: Approve or Deny one request. */
export function answerAuthenticatorRequest(body: AuthenticatorAnswerBody): Promise<SuccessResponse> {
  return call(authenticatorAnswerResponse, { method: 'post', url: api.authenticatorAnswer, data: body });
}
