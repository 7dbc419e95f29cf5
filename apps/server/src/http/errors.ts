import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, messages } from '../platform/app-error';
import { isInvalidText, isPoolWaitTimeout, unavailableReason } from '../platform/db-errors';
import { OutageLog } from '../platform/outage-log';

function send(reply: FastifyReply, status: number, errors: string[]) {
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

/** The one error handler: every failure leaves as `{ errors: [...] }` with a fitting status. */
export function registerErrorHandling(
  app: FastifyInstance,
  outages = new OutageLog('database unavailable'),
  /**
   * Requests that waited out the pool's connection wait: this instance has more work than
   * connections (overload: a warning, not the error operators page on), the database may be fine.
   */
  poolWaits = new OutageLog(
    'database pool busy: requests waited too long for a free connection (overload)',
    10_000,
    undefined,
    'warn',
  ),
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
      if (error.status >= 500) request.log.warn({ code: error.code }, 'service unavailable');
      return send(reply, error.status, error.list ?? [error.message]);
    }
    if (error.validation || hasZodFastifySchemaValidationErrors(error)) {
      return send(reply, 400, describeValidation(error));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 413, [messages.tooLarge]);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 415, [messages.mediaType]);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(reply, 400, [messages.badJson]);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // fastify's own client errors (bad content length, aborted body, ...): say little.
      return send(reply, error.statusCode, [messages.badRequest]);
    }
    if (isInvalidText(error)) {
      request.log.warn({ err: { type: error.name, code: error.code } }, 'text the database cannot store');
      return send(reply, 400, [messages.invalidText]);
    }
    const unavailable = unavailableReason(error);
    if (unavailable) {
      if (isPoolWaitTimeout(error)) poolWaits.failed(request.log, 'pool connection wait');
      else outages.failed(request.log, unavailable);
      return send(reply, 503, [messages.unavailable]);
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, 500, [messages.unexpected]);
  });
}
