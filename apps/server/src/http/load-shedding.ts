import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { api } from '@pra/contracts';
import type { AppContext } from './context';
import { AppError, messages } from './errors';

/** What a shed caller is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

function overloaded(): AppError {
  return new AppError('serviceUnavailable', messages.unavailable, RETRY_AFTER_SECONDS);
}

/** Routes that answer even under pressure: the load balancer's health check. */
const exempt = new Set<string>([api.serviceCheck]);

/**
 * Load shedding: past a bound of event-loop lag or of callers queued for a database connection,
 * new requests are answered 503 with Retry-After at once, before they touch the database, rather
 * than queued behind work the process cannot finish in time. The bounds are settings (0: off);
 * the health check stays exempt so an overloaded instance is not taken for a dead one.
 */
export async function registerLoadShedding(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const maxWaiting = ctx.config.SHED_MAX_POOL_WAITING;
  if (maxWaiting > 0) {
    app.addHook('onRequest', async (request) => {
      if (exempt.has(request.routeOptions.url ?? '')) return;
      const waiting = ctx.poolStats()?.waiting ?? 0;
      if (waiting > maxWaiting) throw overloaded();
    });
  }
  const maxEventLoopDelay = ctx.config.SHED_MAX_EVENT_LOOP_DELAY_MS;
  if (maxEventLoopDelay > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay,
      sampleInterval: 250,
      // Our envelope and Retry-After, through the one error handler; a null answer lets it through.
      pressureHandler: async (request) => {
        if (!exempt.has(request.routeOptions.url ?? '')) throw overloaded();
      },
    });
  }
}
