import { activateBody, activateResponse, decodeBody, decodeResponse } from '../activation';
import { endpoint } from '../endpoint';
import { passwordRequirements, passwordRequirementsQuery } from '../password-policy';
import { api } from '../paths';

export const decodeActivationCode = endpoint({
  method: 'POST',
  path: api.activationDecode,
  operationId: 'decodeActivationCode',
  summary: 'Whether an activation code is good, and the account it is for',
  tag: 'activation',
  callers: 'anyone',
  body: decodeBody,
  response: { 200: decodeResponse },
});

export const activateWithPassword = endpoint({
  method: 'POST',
  path: api.activate,
  operationId: 'activateWithPassword',
  summary: 'Activates an account with its code and a new password',
  tag: 'activation',
  callers: 'anyone',
  identityService: true,
  body: activateBody,
  response: { 200: activateResponse },
});

export const getPasswordRequirements = endpoint({
  method: 'GET',
  path: api.passwordRequirements,
  operationId: 'getPasswordRequirements',
  summary: 'The password policy for a user',
  tag: 'activation',
  callers: 'anyone',
  query: passwordRequirementsQuery,
  response: { 200: passwordRequirements },
});
