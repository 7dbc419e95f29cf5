import { endpoint } from '../endpoint';
import { api } from '../paths';
import {
  identifyBody,
  identifyByCodeBody,
  identifyByCodeResponse,
  identifyResponse,
  pingPushBody,
  pingPushResponse,
  sendResetEmailBody,
  sendResetEmailResponse,
  setPasswordBody,
  setPasswordResponse,
  userIdSearchBody,
  userIdSearchResponse,
  verifyOtpBody,
  verifyOtpResponse,
} from '../recovery';
import {
  recoveryKeyOptionsBody,
  recoveryKeyVerifyBody,
  recoveryKeyVerifyResponse,
  recoverySecurityKeyPaths,
  webauthnOptionsResponse,
} from '../security-keys';

export const searchUserId = endpoint({
  method: 'POST',
  path: api.forgotUserIdSearch,
  operationId: 'searchUserId',
  summary: 'Forgot User ID: emails the user ID of a matching account',
  tag: 'recovery',
  callers: 'anyone',
  body: userIdSearchBody,
  response: { 200: userIdSearchResponse },
});

export const identifyAccount = endpoint({
  method: 'POST',
  path: api.forgotIdentify,
  operationId: 'identifyAccount',
  summary: 'Forgot Password: binds this session to the account named by username and email',
  tag: 'recovery',
  callers: 'anyone',
  body: identifyBody,
  response: { 200: identifyResponse },
});

export const identifyByCode = endpoint({
  method: 'POST',
  path: api.forgotIdentifyByCode,
  operationId: 'identifyByCode',
  summary: 'Forgot Password: binds this session to the account of a reset code',
  tag: 'recovery',
  callers: 'anyone',
  body: identifyByCodeBody,
  response: { 200: identifyByCodeResponse },
});

export const verifyOtp = endpoint({
  method: 'POST',
  path: api.forgotVerifyOtp,
  operationId: 'verifyOtp',
  summary: 'Forgot Password: checks the authenticator’s passcode',
  tag: 'recovery',
  callers: 'anyone',
  body: verifyOtpBody,
  response: { 200: verifyOtpResponse },
});

export const pingPush = endpoint({
  method: 'POST',
  path: api.forgotPingPush,
  operationId: 'pingPush',
  summary: 'Forgot Password: asks the paired phone and waits for its answer',
  tag: 'recovery',
  callers: 'anyone',
  body: pingPushBody,
  response: { 200: pingPushResponse },
});

export const sendResetEmail = endpoint({
  method: 'POST',
  path: api.forgotSendResetEmail,
  operationId: 'sendResetEmail',
  summary: 'Forgot Password: emails a reset code',
  tag: 'recovery',
  callers: 'anyone',
  identityService: true,
  body: sendResetEmailBody,
  response: { 200: sendResetEmailResponse },
});

export const setNewPassword = endpoint({
  method: 'POST',
  path: api.forgotSetPassword,
  operationId: 'setNewPassword',
  summary: 'Forgot Password: sets the new password once verified',
  tag: 'recovery',
  callers: 'anyone',
  identityService: true,
  body: setPasswordBody,
  response: { 200: setPasswordResponse },
});

export const recoveryKeyOptions = endpoint({
  method: 'POST',
  path: recoverySecurityKeyPaths.options,
  operationId: 'recoveryKeyOptions',
  summary: 'Forgot Password: options for verifying with the bound account’s security key or passkey',
  tag: 'recovery',
  callers: 'anyone',
  body: recoveryKeyOptionsBody,
  response: { 200: webauthnOptionsResponse },
});

export const recoveryKeyVerify = endpoint({
  method: 'POST',
  path: recoverySecurityKeyPaths.verify,
  operationId: 'recoveryKeyVerify',
  summary: 'Forgot Password: checks the security key’s or passkey’s assertion',
  tag: 'recovery',
  callers: 'anyone',
  body: recoveryKeyVerifyBody,
  response: { 200: recoveryKeyVerifyResponse },
});
