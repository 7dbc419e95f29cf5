import { z } from 'zod';
import { endpoint, media } from '../endpoint';
import { api } from '../paths';
import { clientLogBody, systemMessage } from '../system';

export const getSystemMessage = endpoint({
  method: 'GET',
  path: api.systemMessage,
  operationId: 'getSystemMessage',
  summary: 'The operator’s banner',
  tag: 'system',
  callers: 'anyone',
  response: { 200: systemMessage },
});

export const reportClientFailure = endpoint({
  method: 'POST',
  path: api.clientLog,
  operationId: 'reportClientFailure',
  summary: 'A failure the browser saw, for the server log',
  tag: 'system',
  callers: 'anyone',
  csrf: false,
  body: clientLogBody,
  response: { 204: z.null() },
});

export const getServiceCheck = endpoint({
  method: 'GET',
  path: api.serviceCheck,
  operationId: 'getServiceCheck',
  summary: 'A plain-text status report of the service and what it depends on',
  tag: 'system',
  callers: 'anyone',
  response: {
    200: media('text/plain', 'Every check passed'),
    503: media('text/plain', 'A check failed'),
  },
});

export const getOpenApi = endpoint({
  method: 'GET',
  path: api.openapi,
  operationId: 'getOpenApi',
  summary: 'This description of the API (OpenAPI 3.1)',
  tag: 'system',
  callers: 'anyone',
  response: { 200: media('application/json', 'This document') },
});
