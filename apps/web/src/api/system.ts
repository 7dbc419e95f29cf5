import type { SystemMessage } from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import { systemMessageBody } from './boot-parsers';
import { call, textBody } from './client';

/** GET /api/system/message: the operator's banner. */
export function getSystemMessage(signal?: AbortSignal): Promise<SystemMessage> {
  return call(systemMessageBody, { method: 'get', url: api.systemMessage, signal });
}

/** GET /api/service_check: a plain-text status report. */
export function getServiceCheck(signal?: AbortSignal): Promise<string> {
  return call(textBody, { method: 'get', url: api.serviceCheck, signal });
}
