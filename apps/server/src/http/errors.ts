import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, messages } from '../platform/app-error';
import {
  isDiskFull,
  isInvalidText,
  isPoolWaitTimeout,
  isTransactionConflict,
  unavailableReason,
} from '../platform/db-errors';
import { OutageLog } from '../platform/outage-log';
import { otherMethods, sendMethodNotAllowed } from './served-methods';

/** Answers `status` with the error envelope. */
export function sendErrors(reply: FastifyReply, status: number, errors: string[]) {
  return reply.status(status).type('application/json; charset=utf-8').send({ errors });
}

/** Formats a zod issue path and message for the person who sent the request. */
function describeValidation(error: FastifyError): string[] {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation.map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const message = issue.message ?? 'Invalid value';
      return field ? `${field}: ${message}` : message;
    });
  }
  return [error.message];
}

/** The thinned-out log lines of the failures that come in floods (see OutageLog). */
export interface FailureLogs {
  /** The database is unreachable, lost, hung or refusing (level error: what operators page on). */
  outages: OutageLog;
  /**
   * Requests that waited out the pool's connection wait: this instance has more work than
   * connections (overload: a warning, not the error operators page on), the database may be fine.
   */
  poolWaits: OutageLog;
  /** The database's disk is full (53100): nothing can be written until space is freed. */
  diskFull: OutageLog;
}

/** One line a minute at most for a full disk: it lasts until someone frees space. */
const DISK_FULL_LINE_MS = 60_000;

/** The failure logs; `disk` names where the database writes (standalone: DATA_DIR). */
export function failureLogs(disk = "PostgreSQL's data disk"): FailureLogs {
  return {
    outages: new OutageLog('database unavailable'),
    poolWaits: new OutageLog(
      'database pool busy: requests waited too long for a free connection (overload)',
      10_000,
      undefined,
      'warn',
    ),
    diskFull: new OutageLog(
      `database disk full: nothing can be written until space is freed on ${disk}`,
      DISK_FULL_LINE_MS,
    ),
  };
}

/** The one error handler: every failure leaves as `{ errors: [...] }` with a fitting status. */
export function registerErrorHandling(app: FastifyInstance, logs: FailureLogs = failureLogs()): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // A request no route took failed before the 404 handler (its body did not parse): a path
    // served with other methods is still a 405, whatever the body.
    if (request.is404) {
      const allowed = otherMethods(request);
      if (allowed) return sendMethodNotAllowed(reply, allowed);
    }
    if (error instanceof AppError) {
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
      if (error.status >= 500) request.log.warn({ code: error.code }, 'service unavailable');
      return sendErrors(reply, error.status, error.list ?? [error.message]);
    }
    if (error.validation || hasZodFastifySchemaValidationErrors(error)) {
      return sendErrors(reply, 400, describeValidation(error));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendErrors(reply, 413, [messages.tooLarge]);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendErrors(reply, 415, [messages.mediaType]);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendErrors(reply, 400, [messages.badJson]);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // fastify's own client errors (bad content length, aborted body, ...): say little.
      return sendErrors(reply, error.statusCode, [messages.badRequest]);
    }
    if (isInvalidText(error)) {
      request.log.warn({ err: { type: error.name, code: error.code } }, 'text the database cannot store');
      return sendErrors(reply, 400, [messages.invalidText]);
    }
    if (isTransactionConflict(error)) {
      // Logged as a warning with its code: a lock order some path still gets wrong shows up here.
      request.log.warn({ sqlState: error.code }, 'transaction conflict');
      return sendErrors(reply, 409, [messages.concurrentChange]);
    }
    const unavailable = unavailableReason(error);
    if (unavailable) {
      if (isPoolWaitTimeout(error)) logs.poolWaits.failed(request.log, 'pool connection wait');
      else if (isDiskFull(error)) logs.diskFull.failed(request.log, unavailable);
      else logs.outages.failed(request.log, unavailable);
      return sendErrors(reply, 503, [messages.unavailable]);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendErrors(reply, 500, [messages.unexpected]);
  });
}
