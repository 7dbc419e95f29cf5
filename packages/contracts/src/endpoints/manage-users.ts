import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  enableOrDisableBody,
  managedUsersPage,
  managedUsersQuery,
  managedUsersResponse,
  manageUserResponse,
  resetActivationCodeBody,
  resetSignInMethodsBody,
  sendOtpEmailBody,
} from '../manage-users';
import { api } from '../paths';

export const getManagedUsers = endpoint({
  method: 'GET',
  path: api.managedUsers,
  operationId: 'getManagedUsers',
  tokenScope: 'users:read',
  summary: 'The vendor users the caller manages (one page of them with paging parameters)',
  tag: 'manage-users',
  callers: 'brmOrAdmin',
  query: managedUsersQuery,
  response: { 200: z.union([managedUsersPage, managedUsersResponse]) },
});

export const enableOrDisableUser = endpoint({
  method: 'POST',
  path: api.enableOrDisableUser,
  operationId: 'enableOrDisableUser',
  tokenScope: 'users:write',
  summary: 'Enables or disables a vendor user',
  tag: 'manage-users',
  callers: 'brmOrAdmin',
  identityService: true,
  body: enableOrDisableBody,
  response: { 200: manageUserResponse },
});

export const sendOtpEmail = endpoint({
  method: 'POST',
  path: api.sendOtpEmail,
  operationId: 'sendOtpEmail',
  tokenScope: 'users:write',
  summary: 'Sends a vendor user a new activation email',
  tag: 'manage-users',
  callers: 'brmOrAdmin',
  identityService: true,
  body: sendOtpEmailBody,
  response: { 200: manageUserResponse },
});

export const resetActivationCode = endpoint({
  method: 'POST',
  path: api.resetActivationCode,
  operationId: 'resetActivationCode',
  tokenScope: 'users:write',
  summary: 'Resets a vendor user’s activation code',
  tag: 'manage-users',
  callers: 'brmOrAdmin',
  identityService: true,
  body: resetActivationCodeBody,
  response: { 200: manageUserResponse },
});

export const resetSignInMethods = endpoint({
  method: 'POST',
  path: api.resetSignInMethods,
  operationId: 'resetSignInMethods',
  tokenScope: 'users:write',
  summary: 'Removes a vendor user’s security keys, passkeys and authenticator apps (admins)',
  tag: 'manage-users',
  callers: 'brmOrAdmin',
  identityService: true,
  body: resetSignInMethodsBody,
  response: { 200: manageUserResponse },
});
