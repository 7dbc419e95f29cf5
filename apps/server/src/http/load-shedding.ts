import { probes } from './probes';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { api } from '@pra/contracts';
import type { AppContext } from '../platform/app-context';
import { messages } from '../platform/app-error';

/** What a shed caller is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

/** The error envelope, made once: a shed answer must cost next to nothing. */
const shedBody = JSON.stringify({ errors: [messages.unavailable] });

/**
 * Answers 503 directly, not through the error handler and its log line: under overload every
 * shed answer is CPU taken from the requests being served.
 */
function shed(reply: FastifyReply): string {
  reply
    .status(503)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8');
  return shedBody;
}

/** Routes that answer even under pressure: the load balancer's health check. */
// Health checks and probes are never shed: an overloaded instance is not a dead one.
const exempt = new Set<string>([api.serviceCheck, probes.liveness, probes.readiness]);

/**
 * Load shedding: past a bound of event-loop lag or of callers queued for a database connection,
 * new requests are answered 503 with Retry-After at once, before they touch the database, rather
 * than queued behind work the process cannot finish in time. The bounds are settings (0: off);
 * the health check stays exempt so an overloaded instance is not taken for a dead one. Only on
 * PostgreSQL.
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ settled(): boolean }> {
  const always = { settled: () => true };
  // The embedded database runs on the event loop itself: its own work is the lag, and one process
  // serving a trial has nothing to shed for.
  if (ctx.dbKind === 'pglite') return always;
  const maxWaiting = ctx.config.SHED_MAX_POOL_WAITING;
  if (maxWaiting > 0) {
    app.addHook('onRequest', (request, reply, done) => {
      const waiting = ctx.poolStats()?.waiting ?? 0;
      if (waiting > maxWaiting && !exempt.has(request.routeOptions.url ?? '')) {
        return void reply.send(shed(reply));
      }
      done();
    });
  }
  const maxEventLoopDelay = ctx.config.SHED_MAX_EVENT_LOOP_DELAY_MS;
  if (maxEventLoopDelay <= 0) return always;
  // A start blocks the event loop (loading, building the app, migrations): the lag measured over
  // it says nothing about load. Until a whole sample has been taken after the app became ready,
  // nothing is shed for lag and the readiness probe says not ready, so the instance never answers
  // 503 to an ordinary request once it has said it is ready.
  let settledAt = Infinity;
  app.addHook('onReady', (done) => {
    settledAt = performance.now() + 2 * LAG_SAMPLE_MS;
    done();
  });
  const settled = () => performance.now() >= settledAt;
  await app.register(underPressure, {
    maxEventLoopDelay,
    sampleInterval: LAG_SAMPLE_MS,
    // under-pressure sends what this returns; undefined lets the request through.
    // (Its types say void, but it sends any other answer as the body: index.js handlePressure.)
    pressureHandler: ((request: FastifyRequest, reply: FastifyReply) =>
      exempt.has(request.routeOptions.url ?? '') || !settled()
        ? undefined
        : shed(reply)) as unknown as () => void,
  });
  return { settled };
}

/** How often the event-loop lag is sampled (each sample is the mean lag since the last). */
const LAG_SAMPLE_MS = 250;
