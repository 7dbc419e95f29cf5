import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock';
import type { Db, Tx } from '../platform/db';
import { unavailableReason } from '../platform/db-errors';
import { OutageLog } from '../platform/outage-log';
import {
  appendJobResults,
  claimJob,
  failJob,
  lockLeasedJob,
  recordJobStep,
  releaseJob,
  type JobRow,
} from '../store/jobs';

/** A result line of a step: which item of the job's input it is about, and what happened to it. */
export interface JobResult {
  item: number;
  result: string;
}

/** What one step did: its lines, the kind's new position, and whether nothing is left. */
export interface JobStep {
  results: JobResult[];
  cursor: number;
  finished: boolean;
}

/**
 * A kind of job (the contract: docs/design/jobs.md). `step` does the next piece of work inside the
 * transaction the runner opened, which already holds the job's row locked under a valid lease:
 * everything it writes commits together with the progress it returns, or not at all. It must take
 * at most `limit` items from `job.cursor` on. `failItem` gives the lines of the one item at the
 * cursor when that item alone keeps failing, so the job can go on past it (nothing of it changed).
 */
export interface JobKind {
  kind: string;
  step(tx: Tx, job: JobRow, limit: number, now: Date): Promise<JobStep>;
  failItem(job: JobRow): JobStep;
  /** Why the job may not go on (e.g. its owner lost the right to do it); checked before each step. */
  refusal?(tx: Tx, job: JobRow): Promise<string | null>;
}

export interface JobRunnerOptions {
  clock: Clock;
  /** Items per step (one transaction). */
  stepSize?: number;
  /** A claim's life; each step renews it. A holder that dies frees the job after this long. */
  leaseMs?: number;
  /** Claims that ended without finishing (crashes, restarts) after which the job is failed. */
  maxAttempts?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export const JOB_LEASE_MS = 30_000;
export const JOB_STEP_SIZE = 250;
export const JOB_MAX_ATTEMPTS = 10;

/** Why a run stopped before its job finished. */
export type RunEnd = 'finished' | 'stopped' | 'leaseLost';

/**
 * Runs one claimed job step by step until it ends, the lease is lost or `signal` asks to stop
 * (between steps; the lease is then handed back so any instance resumes the job at once). Each
 * step yields to the event loop first and holds one connection for one short transaction.
 */
export async function runJob(
  db: Db,
  kind: JobKind,
  claimed: JobRow,
  holder: string,
  options: JobRunnerOptions & { signal: AbortSignal },
): Promise<RunEnd> {
  const leaseMs = options.leaseMs ?? JOB_LEASE_MS;
  const stepSize = options.stepSize ?? JOB_STEP_SIZE;
  let limit = stepSize;
  for (;;) {
    await yieldToEventLoop();
    if (options.signal.aborted) {
      await releaseJob(db, { id: claimed.id, holder });
      return 'stopped';
    }
    try {
      const outcome = await db.transaction().execute(async (tx) => {
        const now = options.clock.now();
        const job = await lockLeasedJob(tx, { id: claimed.id, holder, now });
        if (!job) return 'leaseLost' as const;
        const refusal = job.cancel_requested ? null : ((await kind.refusal?.(tx, job)) ?? null);
        if (job.cancel_requested || refusal) {
          await recordJobStep(tx, {
            id: job.id,
            done: job.done,
            cursor: job.cursor,
            now,
            leaseMs,
            finish: refusal ? { status: 'failed', error: refusal } : { status: 'cancelled' },
          });
          return 'finished' as const;
        }
        const step = limit > 0 ? await kind.step(tx, job, limit, now) : kind.failItem(job);
        await appendJobResults(tx, job.id, job.done, step.results);
        await recordJobStep(tx, {
          id: job.id,
          done: job.done + step.results.length,
          cursor: step.cursor,
          now,
          leaseMs,
          ...(step.finished && { finish: { status: 'done' as const } }),
        });
        return step.finished ? ('finished' as const) : ('continue' as const);
      });
      if (outcome !== 'continue') return outcome;
      limit = stepSize;
    } catch (error) {
      // The database is away: stop; the lease runs out and any instance resumes the job later.
      if (unavailableReason(error) || limit === 0) throw error;
      // A failing step: narrow it to one item, then give that item up (nothing of it changed).
      options.log?.warn({ err: error, jobId: claimed.id, kind: kind.kind, limit }, 'job step failed');
      limit = limit > 1 ? 1 : 0;
    }
  }
}

const queued = new EventTarget();

/** Tells this process's workers that a job was queued, so one starts it now rather than at its next poll. */
export function announceJobQueued(): void {
  queued.dispatchEvent(new Event('queued'));
}

export interface JobWorker {
  /** Wakes the worker now (a job was just queued on this instance). */
  poke(): void;
  /** Stops between steps and hands the lease of the running job back. */
  stop(withinMs?: number): Promise<void>;
}

/**
 * Every instance runs one: it claims runnable jobs of the kinds it knows (one at a time, so long
 * work takes one connection of the pool) and runs them. A job whose holder died is taken over once
 * its lease runs out; one that has been claimed `maxAttempts` times without finishing is failed,
 * keeping the lines of what it did.
 */
export function startJobWorker(
  db: Db,
  kinds: readonly JobKind[],
  options: JobRunnerOptions & { intervalMs?: number },
): JobWorker {
  const byKind = new Map(kinds.map((k) => [k.kind, k]));
  const holder = randomUUID();
  const controller = new AbortController();
  const intervalMs = options.intervalMs ?? 2_000;
  const outage = new OutageLog('jobs: database unavailable; will retry', 60_000);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let busy = false;

  const round = async (): Promise<boolean> => {
    const job = await claimJob(db, {
      holder,
      kinds: [...byKind.keys()],
      now: options.clock.now(),
      leaseMs: options.leaseMs ?? JOB_LEASE_MS,
    });
    if (!job) return false;
    if (job.attempts > (options.maxAttempts ?? JOB_MAX_ATTEMPTS)) {
      await failJob(db, {
        id: job.id,
        error: 'The job was interrupted too many times.',
        now: options.clock.now(),
      });
      return true;
    }
    const end = await runJob(db, byKind.get(job.kind)!, job, holder, {
      ...options,
      signal: controller.signal,
    });
    if (end === 'leaseLost') options.log?.warn({ jobId: job.id }, 'job lease lost; another instance has it');
    return end !== 'stopped';
  };

  const tick = () => {
    if (busy || controller.signal.aborted) return;
    busy = true;
    clearTimeout(timer);
    running = round()
      .then((more) => {
        if (options.log) outage.recovered(options.log, 'jobs: database reachable again');
        return more ? 0 : intervalMs;
      })
      .catch((error: unknown) => {
        const reason = unavailableReason(error);
        if (options.log) {
          if (reason) outage.failed(options.log, reason);
          else options.log.error({ err: error }, 'jobs round failed; will retry');
        }
        return intervalMs;
      })
      .then((delay) => {
        busy = false;
        if (!controller.signal.aborted) timer = setTimeout(tick, delay);
      });
  };
  timer = setTimeout(tick, 0);
  queued.addEventListener('queued', tick);
  return {
    poke: () => tick(),
    async stop(withinMs = 10_000) {
      controller.abort();
      clearTimeout(timer);
      queued.removeEventListener('queued', tick);
      let deadline: NodeJS.Timeout | undefined;
      await Promise.race([
        running,
        new Promise<void>((resolve) => {
          deadline = setTimeout(resolve, withinMs);
        }),
      ]);
      clearTimeout(deadline);
    },
  };
}
