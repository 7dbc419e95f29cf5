import type {
  IdentifyBody,
  IdentifyByCodeResponse,
  IdentifyResponse,
  PingPushResponse,
  SetPasswordBody,
  SuccessResponse,
  UserIdSearchBody,
  UserIdSearchResponse,
  VerifyOtpBody,
  VerifyOtpResponse,
} from '@pra/contracts';
import {
  identifyByCodeResponse,
  identifyResponse,
  pingPushResponse,
  sendResetEmailResponse,
  setPasswordResponse,
  userIdSearchResponse,
  verifyOtpResponse,
} from '@pra/contracts/recovery';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** POST /api/user/forgot-user-id/search */
export function searchUserId(body: UserIdSearchBody): Promise<UserIdSearchResponse> {
  return call(userIdSearchResponse, { method: 'post', url: api.forgotUserIdSearch, data: body });
}

/** POST /api/user/forgot-password/identify */
export function identifyAccount(body: IdentifyBody): Promise<IdentifyResponse> {
  return call(identifyResponse, { method: 'post', url: api.forgotIdentify, data: body });
}

/** POST /api/user/forgot-password/identify-by-code */
export function identifyByCode(code: string, signal?: AbortSignal): Promise<IdentifyByCodeResponse> {
  return call(identifyByCodeResponse, {
    method: 'post',
    url: api.forgotIdentifyByCode,
    data: { code },
    signal,
  });
}

/** POST /api/user/forgot-password/ping-push: waits (up to the server's push timeout) for the answer. */
export function pingPush(username: string, signal: AbortSignal): Promise<PingPushResponse> {
  return call(pingPushResponse, { method: 'post', url: api.forgotPingPush, data: { username }, signal });
}

/** POST /api/user/forgot-password/verify-otp */
export function verifyOtp(body: VerifyOtpBody, signal: AbortSignal): Promise<VerifyOtpResponse> {
  return call(verifyOtpResponse, { method: 'post', url: api.forgotVerifyOtp, data: body, signal });
}

/** POST /api/user/forgot-password/send-reset-email */
export function sendResetEmail(username: string): Promise<SuccessResponse> {
  return call(sendResetEmailResponse, { method: 'post', url: api.forgotSendResetEmail, data: { username } });
}

/** POST /api/user/forgot-password/set-password */
export function setNewPassword(body: SetPasswordBody): Promise<SuccessResponse> {
  return call(setPasswordResponse, { method: 'post', url: api.forgotSetPassword, data: body });
}
