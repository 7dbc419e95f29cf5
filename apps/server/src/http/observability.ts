import type { FastifyInstance } from 'fastify';
import { httpDuration } from '../platform/metrics';
import { requestScope, setFallbackLogger } from '../platform/request-scope';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false on the hot reads that never write an audit event (the current user, the
     * authentication status, the probes): they run outside the request scope. See
     * registerObservability.
     */
    audits?: boolean;
  }
}

/** Requests in the request scope whose responses have not closed yet (every app in the process). */
let scopedInFlight = 0;

function leaveScope(): void {
  scopedInFlight -= 1;
  // No request needs the scope now: stop tracking every async resource until one does.
  if (scopedInFlight === 0) requestScope.disable();
}

/**
 * Per-request observability: the request scope (so the audit trail logs with the request id)
 * and the request-duration histogram, labelled by the route pattern fastify matched, never by
 * the raw URL (ids and codes in paths would make a series per caller).
 *
 * The scope is an AsyncLocalStorage. On Node 20 it works through async hooks, which, once on,
 * run for every promise and callback the process makes, in every request: on the signed-in hot
 * path that was several per cent of the CPU. So the hot reads that cannot audit anything stay
 * out of it (route config `audits: false`), and the storage is switched off whenever no request
 * in it is in flight; the next request that needs it switches it on again. A portal serving
 * only reads then pays nothing for it.
 */
export function registerObservability(app: FastifyInstance): void {
  setFallbackLogger(app.log);
  // A callback hook: run() keeps the scope for every later hook and the handler.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.audits === false) return done();
    scopedInFlight += 1;
    // 'close' comes once per response: sent, failed, or its client gone.
    reply.raw.once('close', leaveScope);
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
