import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger } from 'fastify';

/** The request a piece of work runs for: its logger (with the request id bound) and its id. */
export interface RequestScope {
  log: FastifyBaseLogger;
  requestId: string;
  /** The service token the request is made with (set once it is accepted): audit events name it. */
  serviceToken?: { id: string; name: string };
}

/**
 * Carries the current request across awaits, so that deep code (the audit trail) can log with
 * the request's id without every use case passing a logger down. Entered by the app per request.
 */
export const requestScope = new AsyncLocalStorage<RequestScope>();

let fallback: FastifyBaseLogger | null = null;

/** The logger for work outside any request (workers, seeding): the app's own. */
export function setFallbackLogger(log: FastifyBaseLogger): void {
  fallback = log;
}

/** The current request's scope, or the app logger with no request id. */
export function currentScope(): {
  log: FastifyBaseLogger | null;
  requestId: string | null;
  serviceToken?: { id: string; name: string };
} {
  const scope = requestScope.getStore();
  return scope ?? { log: fallback, requestId: null };
}
