import { probes } from './probes';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { api } from '@pra/contracts';
import type { AppContext } from '../platform/app-context';
import { messages } from '../platform/app-error';
import { gateConnections, refusal, RETRY_AFTER_SECONDS } from './connection-gate';

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

/**
 * Routes that answer even under pressure. The health check and the probes: an overloaded instance
 * is not a dead one. Sign-out: the browser leaves for the landing page whatever the answer (the
 * spec ignores logout failures), so a shed sign-out would leave the session alive unseen.
 */
const exempt = new Set<string>([api.serviceCheck, probes.liveness, probes.readiness, api.logout]);
const isExempt = (path: string | undefined) => path !== undefined && exempt.has(path);

/** The answer to a connection refused at the gate: the same 503 as a shed request's, made once. */
const refusedConnection = refusal(shedBody);

/**
 * This instance's backlog: requests between their arrival (onRequest) and their answer (onSend,
 * which every answered request reaches, a client that left included), and how long a request
 * spends in it. The queueing delay a new request can expect is the longest of
 * - the time the latest answered requests spent (averaged per sample of LAG_SAMPLE_MS, half the
 *   weight each sample);
 * - the time the callers already waiting would take to answer at the rate it answers now (Little's
 *   law): requests in flight plus the connections accepted whose request it has not read yet (the
 *   callers an overloaded instance has not even seen: `unread`);
 * - while requests are in flight and none has been answered for longer than those, the time since
 *   the last answer: a backlog that does not move.
 */
export class Backlog {
  inFlight = 0;
  private answeredSinceSample = 0;
  private timeSinceSampleMs = 0;
  private latencyMs = 0;
  /** Answers a millisecond, averaged per sample like the latency. */
  private ratePerMs = 0;
  private movedAt: number;

  constructor(now = performance.now()) {
    this.movedAt = now;
  }

  arrived(now = performance.now()): void {
    // An empty backlog starts moving now: an idle instance's last answer is no stall.
    if (this.inFlight === 0) this.movedAt = now;
    this.inFlight += 1;
  }

  /** A request answered after `spentMs` in the backlog. */
  answered(spentMs: number, now = performance.now()): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.answeredSinceSample += 1;
    this.timeSinceSampleMs += spentMs;
    this.movedAt = now;
  }

  /** Closes a sample of `sampleMs` (LAG_SAMPLE_MS). */
  sample(sampleMs = LAG_SAMPLE_MS): void {
    // A sample with nothing answered and nothing in flight had nobody to answer: it says nothing of
    // the rate it answers at, which it keeps (a rate halved per idle sample made the first callers
    // after a quiet spell look like a queue of minutes).
    const idle = this.answeredSinceSample === 0 && this.inFlight === 0;
    const rate = this.answeredSinceSample / sampleMs;
    if (!idle) this.ratePerMs = this.ratePerMs === 0 ? rate : (this.ratePerMs + rate) / 2;
    if (this.answeredSinceSample > 0) {
      const mean = this.timeSinceSampleMs / this.answeredSinceSample;
      this.latencyMs = this.latencyMs === 0 ? mean : (this.latencyMs + mean) / 2;
    } else if (this.inFlight === 0) {
      this.latencyMs /= 2;
    }
    this.answeredSinceSample = 0;
    this.timeSinceSampleMs = 0;
  }

  /**
   * Milliseconds a request arriving now can expect to spend behind those in flight and the
   * `unread` connections (accepted, their request not read yet).
   */
  queueDelayMs(now = performance.now(), unread = 0): number {
    const waiting = this.inFlight + unread;
    if (waiting === 0) return 0;
    const drain = this.ratePerMs > 0 ? waiting / this.ratePerMs : 0;
    return Math.max(this.latencyMs, drain, this.inFlight > 0 ? now - this.movedAt : 0);
  }
}

/**
 * Shedding on the queueing delay alone, without the event loop's lag: a host that starves the
 * portal of CPU can keep its loop's lag under SHED_MAX_EVENT_LOOP_DELAY_MS while callers queue for
 * seconds (npm run bench:shedding-starved at 2 x capacity: shedding never engaged). Decided once
 * per sample from that sample's measurements, with hysteresis, so that it does not flap:
 * - it engages when, in ENGAGE_SAMPLES samples in a row, the queueing delay of the requests this
 *   instance has read (Backlog, unread connections left out: they may be silent clients, and
 *   without lag the answer rate is not its capacity) is past QUEUE_ALONE_FACTOR x the limit, with
 *   at least QUEUE_ALONE_MIN_IN_FLIGHT of them in flight (a queue, not a few slow calls); the
 *   downloads (long work: exports, CSV reports) are not in the backlog at all;
 * - it ends only once the delay has been back at or under the limit itself (or fewer requests in
 *   flight) for as long as the limit, at least RELEASE_MIN_SAMPLES samples in a row: about the
 *   time the callers it admitted take to be answered. Shedding drains its queue at once; ending
 *   there would let the next callers build it up again.
 * A limit of 0 (SHED_MAX_QUEUE_DELAY_MS=0: lag alone sheds) never engages.
 */
export class QueueAlone {
  engaged = false;
  /** Samples in a row that argue for the other state. */
  private streak = 0;
  private readonly releaseSamples: number;

  constructor(
    private readonly limitMs: number,
    sampleMs = LAG_SAMPLE_MS,
  ) {
    this.releaseSamples = Math.max(RELEASE_MIN_SAMPLES, Math.ceil(limitMs / sampleMs));
  }

  /** One sample's queueing delay (ms) and requests in flight; whether it sheds until the next. */
  sample(delayMs: number, inFlight: number): boolean {
    if (this.limitMs <= 0) return false;
    const queue = inFlight >= QUEUE_ALONE_MIN_IN_FLIGHT;
    const other = this.engaged
      ? !queue || delayMs <= this.limitMs
      : queue && delayMs > QUEUE_ALONE_FACTOR * this.limitMs;
    this.streak = other ? this.streak + 1 : 0;
    if (this.streak >= (this.engaged ? this.releaseSamples : ENGAGE_SAMPLES)) {
      this.engaged = !this.engaged;
      this.streak = 0;
    }
    return this.engaged;
  }
}

/** How far past SHED_MAX_QUEUE_DELAY_MS the queueing delay sheds without the loop's lag. */
export const QUEUE_ALONE_FACTOR = 2;
/** Requests in flight below which there is no queue to shed for without the lag. */
export const QUEUE_ALONE_MIN_IN_FLIGHT = 10;
/** Samples in a row past the bound before shedding on the queue alone engages (one is a spike). */
const ENGAGE_SAMPLES = 2;
/** The fewest samples in a row back under the bound before it ends. */
const RELEASE_MIN_SAMPLES = 2;

declare module 'fastify' {
  interface FastifyRequest {
    /** Counted in load shedding's backlog (its answer uncounts it exactly once). */
    inBacklog: boolean;
  }
}

/**
 * Load shedding: new requests are answered 503 with Retry-After at once, before they touch the
 * database, rather than queued behind work the process cannot finish in time, when
 * - the event loop lags past SHED_MAX_EVENT_LOOP_DELAY_MS *and* the queueing delay a new request
 *   can expect here passes SHED_MAX_QUEUE_DELAY_MS (Backlog: the time its latest requests took,
 *   the time its waiting callers take to drain at its current rate, the unread connections
 *   included, or the time since it last answered one while requests wait): overloaded.
 *   A host that starves the portal of CPU lags it too, but its callers drain quickly; shedding
 *   there would only spend the little CPU left on answering 503s (measured: fewer successful
 *   answers than not shedding, npm run bench:shedding-starved);
 * - or the queueing delay of the requests it has read stays far past SHED_MAX_QUEUE_DELAY_MS
 *   whatever the lag (QueueAlone: decided per sample, with hysteresis): a starved host can hold
 *   the lag under its bound while callers queue for seconds;
 * - or more than SHED_MAX_POOL_WAITING callers queue for a database connection.
 * While that holds, a new connection is refused at the gate (connection-gate.ts): its 503 is
 * written straight on the socket, without HTTP parsing or any hook, so callers an overloaded
 * instance has not read yet cost it next to nothing and hear at once; a request on a connection
 * already open is answered 503 by the first request hook.
 * The bounds are settings (0: off); the health check and the probes are never shed, so an
 * overloaded instance is not taken for a dead one. Only on PostgreSQL.
 *
 * Every request passes through here, so its own cost is one hook of a few comparisons: whether
 * the loop lags is decided once per sample (LAG_SAMPLE_MS), not per request, and the backlog's
 * mark is a property every request is created with (a property added later would change the
 * shape of fastify's request objects).
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ settled: () => boolean }> {
  const always = { settled: () => true };
  // The embedded database runs on the event loop itself: its own work is the lag, and one process
  // serving a trial has nothing to shed for.
  if (ctx.dbKind === 'pglite') return always;
  const maxWaiting = ctx.config.SHED_MAX_POOL_WAITING;
  const maxEventLoopDelay = ctx.config.SHED_MAX_EVENT_LOOP_DELAY_MS;
  if (maxWaiting <= 0 && maxEventLoopDelay <= 0) return always;
  const poolBusy = () => maxWaiting > 0 && (ctx.poolStats()?.waiting ?? 0) > maxWaiting;
  if (maxEventLoopDelay <= 0) {
    gateConnections(app.server, poolBusy, isExempt, refusedConnection);
    app.addHook('onRequest', (request, reply, done) => {
      if (poolBusy() && !exempt.has(request.routeOptions.url ?? '')) return void reply.send(shed(reply));
      done();
    });
    return always;
  }
  const maxQueueDelay = ctx.config.SHED_MAX_QUEUE_DELAY_MS;
  const backlog = new Backlog();
  // The lag: the mean delay of a 10 ms timer over each sample, as @fastify/under-pressure measured
  // it (measured here: the decision needs the backlog too, in one hook of ours).
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  histogram.enable();
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
  /** The last sample's verdict: the loop lags past the bound (and the start is behind it). */
  let lagging = false;
  const queueAlone = new QueueAlone(maxQueueDelay);
  /** Requests answered 503 by the request hook so far (the gate counts its own). */
  let shedRequests = 0;
  /** While overloaded (as seen at a sample): since when, and the counts when it began. */
  let episode: { since: number; shedRequests: number; refused: number } | null = null;
  const sampler = setInterval(() => {
    const lagMs = loopLagMs(histogram.mean / 1e6);
    histogram.reset();
    backlog.sample();
    lagging = lagMs > maxEventLoopDelay && settled();
    const now = performance.now();
    if (settled()) queueAlone.sample(backlog.queueDelayMs(now, 0), backlog.inFlight);
    // One warning when shedding engages and one when it ends, with what decided it and what it
    // shed: operators see when and why, without a line per shed request.
    if (!episode && overloaded()) {
      episode = { since: now, shedRequests, refused: gate.refused() };
      app.log.warn(
        {
          decidedBy: [
            queueAlone.engaged && 'queueing delay alone',
            lagOverloaded() && 'lag and queueing delay',
            poolBusy() && 'pool waiters',
          ].filter(Boolean),
          lagMs: Number.isFinite(lagMs) ? Math.round(lagMs) : 'no timer ran in the sample',
          queueDelayMs: Math.round(backlog.queueDelayMs(now, gate.unread())),
          inFlight: backlog.inFlight,
          unreadConnections: gate.unread(),
          poolWaiting: ctx.poolStats()?.waiting ?? 0,
        },
        'overloaded: load shedding answers new requests and connections 503',
      );
    } else if (episode && !overloaded()) {
      app.log.warn(
        {
          durationMs: Math.round(now - episode.since),
          shedRequests: shedRequests - episode.shedRequests,
          refusedConnections: gate.refused() - episode.refused,
        },
        'no longer overloaded: load shedding stopped',
      );
      episode = null;
    }
  }, LAG_SAMPLE_MS);
  sampler.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sampler);
    histogram.disable();
    done();
  });
  const lagOverloaded = () =>
    lagging &&
    (maxQueueDelay === 0 || backlog.queueDelayMs(performance.now(), gate.unread()) > maxQueueDelay);
  const overloaded = () => queueAlone.engaged || lagOverloaded() || poolBusy();
  const gate = gateConnections(app.server, overloaded, isExempt, refusedConnection);
  app.decorateRequest('inBacklog', false);
  // Callback hooks: they run on every request, and cost a comparison while nothing lags.
  app.addHook('onRequest', (request, reply, done) => {
    gate.read(request.raw.socket);
    if (overloaded() && !exempt.has(request.routeOptions.url ?? '')) {
      shedRequests += 1;
      return void reply.send(shed(reply));
    }
    // A download is long work: it may wait for an export worker, then takes as long as its file.
    // Counted, a few of them waiting looked like a backlog that does not move, and shed everyone.
    if (request.routeOptions.config.longWork) return done();
    request.inBacklog = true;
    backlog.arrived();
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.inBacklog) {
      request.inBacklog = false;
      backlog.answered(reply.elapsedTime);
    }
    done(null, payload);
  });
  return { settled };
}

/**
 * The event loop's lag from the mean delay (ms) of the lag timer over a sample: its delay past
 * its own resolution. A sample in which the timer never ran (no delay recorded, a NaN mean) is a
 * loop held for the whole sample: infinite lag.
 */
export function loopLagMs(meanDelayMs: number): number {
  if (Number.isNaN(meanDelayMs)) return Infinity;
  return Math.max(0, meanDelayMs - LAG_RESOLUTION_MS);
}

/** The lag timer's resolution: the lag is its mean delay past this. */
const LAG_RESOLUTION_MS = 10;

/** How often the event-loop lag and the backlog's completion rate are sampled. */
const LAG_SAMPLE_MS = 250;
