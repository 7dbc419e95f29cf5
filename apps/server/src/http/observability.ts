import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** Requests in the request scope whose work is not over yet (every app in the process). */
let scopedInFlight = 0;

/** How many scoped requests are at work now (0: the storage is off). */
export function scopedRequestsAtWork(): number {
  return scopedInFlight;
}

/** Set on a scoped request: takes it out of the count, once. */
const leaveScope = Symbol('leaveScope');
declare module 'fastify' {
  interface FastifyRequest {
    [leaveScope]?: () => void;
  }
}

function enterScope(request: FastifyRequest, reply: FastifyReply): void {
  scopedInFlight += 1;
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    scopedInFlight -= 1;
    // No request needs the scope now: stop tracking every async resource until one does.
    if (scopedInFlight === 0) requestScope.disable();
  };
  request[leaveScope] = leave;
  // A client that goes away does not stop the handler: its work (and its audit lines) goes on
  // until the reply is sent, so a 'close' before the response finished is not the end. A reply
  // that was sent without onSend (hijacked) ends at its 'close'.
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) leave();
  });
}

/**
 * Per-request observability: the request scope (so the audit trail logs with the request id)
 * and the request-duration histogram, labelled by the route pattern fastify matched, never by
 * the raw URL (ids and codes in paths would make a series per caller).
 *
 * The scope is an AsyncLocalStorage. On Node 22 it works through async hooks, which, once on,
 * run for every promise and callback the process makes, in every request: on the signed-in hot
 * path that was several per cent of the CPU. So the hot reads that cannot audit anything stay
 * out of it (route config `audits: false`), and the storage is switched off whenever no request
 * in it is still at work (until its onSend, which comes after its handler and error handler, also
 * when the client has gone); the next request that needs it switches it on again. A portal serving
 * only reads then pays nothing for it.
 */
export function registerObservability(app: FastifyInstance): void {
  setFallbackLogger(app.log);
  // A callback hook: run() keeps the scope for every later hook and the handler.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.audits === false) return done();
    enterScope(request, reply);
    requestScope.run({ log: request.log, requestId: request.id }, done);
  });
  // onSend comes once the handler (and the error handler) are done, also for a request whose
  // client has gone: nothing after it writes an audit event.
  app.addHook('onSend', (request, _reply, payload, done) => {
    request[leaveScope]?.();
    done(null, payload);
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
