import type { FastifyInstance } from 'fastify';
import { api } from '@pra/contracts';

/**
 * The first phase of a graceful shutdown. The server still listens, but every answer carries
 * `Connection: close`, so clients drop their kept-alive sockets after it instead of sending the
 * next request into a socket that is about to close (which would get no answer at all); and the
 * service check answers 503, so the load balancer takes this instance out of rotation.
 */
export function registerDraining(app: FastifyInstance): { start(): void } {
  let draining = false;
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    void reply.header('connection', 'close');
    if (request.method === 'GET' && request.url.split('?')[0] === api.serviceCheck) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('status: DRAINING (this instance is shutting down)\n');
    }
  });
  return {
    start() {
      draining = true;
    },
  };
}

/** How long the drain lasts: long enough for a health check to notice, well inside the grace. */
export function drainMilliseconds(graceSeconds: number): number {
  return Math.min(5_000, (graceSeconds * 1000) / 4);
}
