import type {
  ConfirmOwnerBody,
  ConfirmOwnerResponse,
  PairedAuthenticators,
  RemoveAuthenticatorBody,
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
  confirmOwnerResponse,
  pairedAuthenticators,
  removeAuthenticatorResponse,
} from '@pra/contracts/authenticator';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** POST /api/user/authenticator/confirm: the owner's password (and passcode) before a change. */
export function confirmOwner(body: ConfirmOwnerBody): Promise<ConfirmOwnerResponse> {
  return call(confirmOwnerResponse, { method: 'post', url: api.authenticatorConfirm, data: body });
}

/** GET /api/user/authenticators: the signed-in account's paired phones. */
export function fetchPairedAuthenticators(): Promise<PairedAuthenticators> {
  return call(pairedAuthenticators, { method: 'get', url: api.authenticators });
}

/** POST /api/user/authenticator/remove: unpairs one phone (after `confirmOwner`). */
export function removeAuthenticator(body: RemoveAuthenticatorBody): Promise<SuccessResponse> {
  return call(removeAuthenticatorResponse, { method: 'post', url: api.authenticatorRemove, data: body });
}

/** POST /api/user/authenticator/pair: one more phone (after `confirmOwner`); answers the QR code. */
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
