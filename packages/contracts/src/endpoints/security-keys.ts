import { endpoint } from '../endpoint';
import {
  addSecurityKeyBody,
  addSecurityKeyResponse,
  confirmWithSecurityKeyBody,
  renameSecurityKeyBody,
  securityKeyList,
  securityKeyParams,
  securityKeyPaths,
  securityKeyResponse,
  webauthnOptionsResponse,
} from '../security-keys';

export const getSecurityKeys = endpoint({
  method: 'GET',
  path: securityKeyPaths.keys,
  operationId: 'getSecurityKeys',
  summary: 'The signed-in vendor’s security keys and passkeys, and what adding one needs',
  tag: 'profile',
  callers: 'vendor',
  response: { 200: securityKeyList },
});

export const securityKeyRegistrationOptions = endpoint({
  method: 'POST',
  path: securityKeyPaths.registrationOptions,
  operationId: 'securityKeyRegistrationOptions',
  summary: 'Options for adding a security key or passkey (after a fresh re-authentication)',
  tag: 'profile',
  callers: 'vendor',
  response: { 200: webauthnOptionsResponse },
});

export const addSecurityKey = endpoint({
  method: 'POST',
  path: securityKeyPaths.keys,
  operationId: 'addSecurityKey',
  summary: 'Adds a security key or passkey (the browser’s attestation and a nickname)',
  tag: 'profile',
  callers: 'vendor',
  body: addSecurityKeyBody,
  response: { 200: addSecurityKeyResponse },
});

export const securityKeyAssertionOptions = endpoint({
  method: 'POST',
  path: securityKeyPaths.assertionOptions,
  operationId: 'securityKeyAssertionOptions',
  summary: 'Options for confirming with an existing security key or passkey',
  tag: 'profile',
  callers: 'vendor',
  response: { 200: webauthnOptionsResponse },
});

export const confirmWithSecurityKey = endpoint({
  method: 'POST',
  path: securityKeyPaths.assertion,
  operationId: 'confirmWithSecurityKey',
  summary: 'Confirms the owner with an existing security key or passkey (before adding another)',
  tag: 'profile',
  callers: 'vendor',
  body: confirmWithSecurityKeyBody,
  response: { 200: securityKeyResponse },
});

export const renameSecurityKey = endpoint({
  method: 'PATCH',
  path: securityKeyPaths.key,
  operationId: 'renameSecurityKey',
  summary: 'Renames one of the signed-in vendor’s security keys or passkeys',
  tag: 'profile',
  callers: 'vendor',
  params: securityKeyParams,
  body: renameSecurityKeyBody,
  response: { 200: securityKeyResponse },
});

export const removeSecurityKey = endpoint({
  method: 'DELETE',
  path: securityKeyPaths.key,
  operationId: 'removeSecurityKey',
  summary: 'Removes one of the signed-in vendor’s security keys or passkeys (never the last one required)',
  tag: 'profile',
  callers: 'vendor',
  params: securityKeyParams,
  response: { 200: securityKeyResponse },
});
