import type { FastifyInstance } from 'fastify';
import { httpDuration } from '../platform/metrics';
import { requestScope, setFallbackLogger } from '../platform/request-scope';

/**
 * Per-request observability: the request scope (so the audit trail logs with the request id)
 * and the request-duration histogram, labelled by the route pattern fastify matched, never by
 * the raw URL (ids and codes in paths would make a series per caller).
 */
export function registerObservability(app: FastifyInstance): void {
  setFallbackLogger(app.log);
  // A callback hook: run() keeps the scope for every later hook and the handler.
  app.addHook('onRequest', (request, _reply, done) => {
    requestScope.run({ log: request.log, requestId: request.id }, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    httpDuration.observe(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
