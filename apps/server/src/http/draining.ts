import { Server as NetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { api } from '@pra/contracts';
import { probes } from './probes';

/**
 * The first phase of a graceful shutdown. The server still listens, but every answer carries
 * `Connection: close`, so clients drop their kept-alive sockets after it instead of sending the
 * next request into a socket that is about to close (which would get no answer at all); and the
 * readiness probe and the service check answer 503, so the load balancer takes this instance out
 * of rotation.
 */
export function registerDraining(app: FastifyInstance): { start(): void; stopAccepting(): Promise<void> } {
  let draining = false;
  // A callback hook, not an async one: it runs on every request and almost always does nothing.
  app.addHook('onRequest', (request, reply, done) => {
    if (!draining) return done();
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && (path === api.serviceCheck || path === probes.readiness)) {
      void reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('status: DRAINING (this instance is shutting down)\n');
      return;
    }
    done();
  });
  // At answer time, not arrival: a request that came in before the drain and answers during it
  // must close its socket too, or the client sends its next request into a closing server.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) void reply.header('connection', 'close');
    done(null, payload);
  });
  return {
    start() {
      draining = true;
    },
    /**
     * Closes the listening socket but not the connections. Node's http close also drops every
     * connection without a request in progress, including one accepted a moment ago whose request
     * has not been read yet: that client would get a reset, no answer. So the listener closes
     * first and such connections get a moment to be read and answered (with `Connection: close`)
     * before fastify's close reaps what is still idle.
     */
    async stopAccepting() {
      NetServer.prototype.close.call(app.server);
      await new Promise((resolve) => setTimeout(resolve, ACCEPTED_SETTLE_MS));
    },
  };
}

/** Time for connections accepted just before the listener closed to deliver their request. */
const ACCEPTED_SETTLE_MS = 250;
