import { z } from 'zod';
import { endpoint } from '../endpoint';
import { api } from '../paths';
import { changePasswordBody, changePasswordResponse, reauthenticateResponse } from '../profile';

export const reauthenticate = endpoint({
  method: 'GET',
  path: api.reauthenticate,
  operationId: 'reauthenticate',
  summary: 'Confirms the signed-in vendor’s current password (sent in headers)',
  tag: 'profile',
  callers: 'vendor',
  identityService: true,
  headers: z.object({ username: z.string(), password: z.string() }),
  response: { 200: reauthenticateResponse },
});

export const changePassword = endpoint({
  method: 'POST',
  path: api.changePassword,
  operationId: 'changePassword',
  summary: 'Changes the signed-in vendor’s password (shortly after reauthenticating)',
  tag: 'profile',
  callers: 'vendor',
  identityService: true,
  body: changePasswordBody,
  response: { 200: changePasswordResponse },
});
