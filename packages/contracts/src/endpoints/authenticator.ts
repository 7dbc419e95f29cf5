import {
  authenticatorAnswerBody,
  authenticatorAnswerResponse,
  authenticatorStatus,
  authenticatorStatusBody,
  confirmOwnerBody,
  confirmOwnerResponse,
  pairAuthenticatorBody,
  pairAuthenticatorResponse,
  pairedAuthenticators,
  removeAuthenticatorBody,
  removeAuthenticatorResponse,
} from '../authenticator';
import { endpoint } from '../endpoint';
import { api } from '../paths';

export const confirmOwner = endpoint({
  method: 'POST',
  path: api.authenticatorConfirm,
  operationId: 'confirmOwner',
  summary: 'Confirms the owner (password, and a passcode when a factor exists) before a factor change',
  tag: 'authenticator',
  callers: 'signedIn',
  body: confirmOwnerBody,
  response: { 200: confirmOwnerResponse },
});

export const getPairedAuthenticators = endpoint({
  method: 'GET',
  path: api.authenticators,
  operationId: 'getPairedAuthenticators',
  summary: 'The signed-in account’s paired phones',
  tag: 'authenticator',
  callers: 'signedIn',
  response: { 200: pairedAuthenticators },
});

export const pairAuthenticator = endpoint({
  method: 'POST',
  path: api.authenticatorPair,
  operationId: 'pairAuthenticator',
  summary: 'Pairs one more phone (answers the QR code’s link)',
  tag: 'authenticator',
  callers: 'signedIn',
  body: pairAuthenticatorBody,
  response: { 200: pairAuthenticatorResponse },
});

export const removeAuthenticator = endpoint({
  method: 'POST',
  path: api.authenticatorRemove,
  operationId: 'removeAuthenticator',
  summary: 'Unpairs one of the signed-in account’s phones',
  tag: 'authenticator',
  callers: 'signedIn',
  body: removeAuthenticatorBody,
  response: { 200: removeAuthenticatorResponse },
});

export const getAuthenticatorStatus = endpoint({
  method: 'POST',
  path: api.authenticatorStatus,
  operationId: 'getAuthenticatorStatus',
  summary: 'The paired phone: its pending requests and current passcode (device key in the body)',
  tag: 'authenticator',
  callers: 'anyone',
  body: authenticatorStatusBody,
  response: { 200: authenticatorStatus },
});

export const answerAuthenticatorRequest = endpoint({
  method: 'POST',
  path: api.authenticatorAnswer,
  operationId: 'answerAuthenticatorRequest',
  summary: 'The paired phone approves or denies one request',
  tag: 'authenticator',
  callers: 'anyone',
  body: authenticatorAnswerBody,
  response: { 200: authenticatorAnswerResponse },
});
