import type { FastifyReply } from 'fastify';

/**
 * A signal aborted when the connection closes before the reply was sent: the browser gave up
 * (Cancel, a new attempt, a closed tab). Long waits (a push) stop at once instead of running on.
 */
export function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
