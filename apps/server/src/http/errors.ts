import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, messages } from '../platform/app-error';
import { isInvalidText, unavailableReason } from '../platform/db-errors';

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

/**
 * The log of a database outage: its first failure at once, then at most one line per interval
 * saying how many more requests were answered 503 meanwhile. Under load an outage fails every
 * request; a line per request (tens of thousands a second) would bury everything else in the log
 * and cost the CPU the portal needs to recover. Each request keeps its own request line (503).
 */
export class OutageLog {
  private lastLineAt = -Infinity;
  private unlogged = 0;

  constructor(
    private readonly intervalMs = 10_000,
    private readonly now = () => performance.now(),
  ) {}

  failed(log: FastifyBaseLogger, reason: string): void {
    const now = this.now();
    if (now - this.lastLineAt < this.intervalMs) {
      this.unlogged += 1;
      return;
    }
    log.error({ reason, moreSinceLastLine: this.unlogged }, 'database unavailable');
    this.lastLineAt = now;
    this.unlogged = 0;
  }
}

/** The one error handler: every failure leaves as `{ errors: [...] }` with a fitting status. */
export function registerErrorHandling(app: FastifyInstance, outages = new OutageLog()): void {
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
      outages.failed(request.log, unavailable);
      return send(reply, 503, [messages.unavailable]);
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, 500, [messages.unexpected]);
  });
}
