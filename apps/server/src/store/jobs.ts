import type { Selectable } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { JobStatus, JobsTable } from '../platform/db-schema';

// The owner of `jobs` and `job_results` (background work a browser follows: identity/jobs.ts runs
// them, the features that start them read them). Every instant comes from the caller's clock.

export type JobRow = Selectable<JobsTable>;

/** Statuses a job never leaves. */
export const FINISHED: readonly JobStatus[] = ['done', 'cancelled', 'failed'];

const leaseEnd = (now: Date, leaseMs: number) => new Date(now.getTime() + leaseMs);

export async function insertJob(
  db: Db | Tx,
  job: { kind: string; ownerId: string; input: unknown; total: number; now: Date },
): Promise<string> {
  const { id } = await db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      owner_id: job.ownerId,
      input: JSON.stringify(job.input),
      total: job.total,
      lease_holder: null,
      lease_until: null,
      error: null,
      created_at: job.now,
      updated_at: job.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Takes the oldest runnable job of `kinds` whose lease is free, has run out (a holder that died) or is
 * `holder`'s own,
 * in one short transaction: `FOR UPDATE SKIP LOCKED`, so two instances never claim one job, then a
 * lease for `holder` and one more attempt. Undefined when nothing is runnable.
 */
export async function claimJob(
  db: Db,
  claim: { holder: string; kinds: readonly string[]; now: Date; leaseMs: number },
): Promise<JobRow | undefined> {
  if (claim.kinds.length === 0) return undefined;
  return db.transaction().execute(async (tx) => {
    const next = await tx
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ['queued', 'running'])
      .where('kind', 'in', claim.kinds)
      // A holder may take its own job back at once (its step failed with the database away).
      .where((eb) =>
        eb.or([
          eb('lease_until', 'is', null),
          eb('lease_until', '<', claim.now),
          eb('lease_holder', '=', claim.holder),
        ]),
      )
      .orderBy('created_at')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!next) return undefined;
    return tx
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        lease_holder: claim.holder,
        lease_until: leaseEnd(claim.now, claim.leaseMs),
        attempts: eb('attempts', '+', 1),
        updated_at: claim.now,
      }))
      .where('id', '=', next.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * The job's row locked for the rest of the step's transaction, only while `holder`'s lease is
 * still good: a holder whose lease ran out (and may have been taken over) gets undefined and must
 * write nothing. This lock is what makes a step's changes and its progress one atomic unit.
 */
export async function lockLeasedJob(
  tx: Tx,
  lease: { id: string; holder: string; now: Date },
): Promise<JobRow | undefined> {
  return tx
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', lease.id)
    .where('lease_holder', '=', lease.holder)
    .where('lease_until', '>', lease.now)
    .where('status', '=', 'running')
    .forUpdate()
    .executeTakeFirst();
}

/** Appends a step's result lines, numbered on from `from` (the job's `done` before the step). */
export async function appendJobResults(
  tx: Tx,
  jobId: string,
  from: number,
  results: readonly { item: number; result: string }[],
): Promise<void> {
  for (let i = 0; i < results.length; i += 1000) {
    const chunk = results.slice(i, i + 1000);
    await tx
      .insertInto('job_results')
      .values(chunk.map((r, n) => ({ job_id: jobId, ordinal: from + i + n, item: r.item, result: r.result })))
      .execute();
  }
}

/** Records a step: progress, a renewed lease, and (when it ended the job) its final status. */
export async function recordJobStep(
  tx: Tx,
  step: {
    id: string;
    done: number;
    cursor: number;
    now: Date;
    leaseMs: number;
    finish?: { status: 'done' | 'cancelled' | 'failed'; error?: string };
  },
): Promise<void> {
  await tx
    .updateTable('jobs')
    .set({
      done: step.done,
      cursor: step.cursor,
      updated_at: step.now,
      ...(step.finish
        ? {
            status: step.finish.status,
            error: step.finish.error ?? null,
            finished_at: step.now,
            lease_holder: null,
            lease_until: null,
          }
        : { lease_until: leaseEnd(step.now, step.leaseMs) }),
    })
    .where('id', '=', step.id)
    .execute();
}

/** Hands the lease back (a worker stopping between steps), so any instance resumes the job at once. */
export async function releaseJob(db: Db, lease: { id: string; holder: string }): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ lease_holder: null, lease_until: null })
    .where('id', '=', lease.id)
    .where('lease_holder', '=', lease.holder)
    .execute();
}

/** Ends a job that cannot go on (outside a step: its lease ran out too often), keeping what it did. */
export async function failJob(db: Db, job: { id: string; error: string; now: Date }): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      status: 'failed',
      error: job.error,
      finished_at: job.now,
      updated_at: job.now,
      lease_holder: null,
      lease_until: null,
    })
    .where('id', '=', job.id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** Asks a job of `ownerId` to stop between steps; false when there is no such unfinished job. */
export async function requestJobCancel(
  db: Db,
  job: { id: string; ownerId: string; kind: string; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ cancel_requested: true, updated_at: job.now })
    .where('id', '=', job.id)
    .where('owner_id', '=', job.ownerId)
    .where('kind', '=', job.kind)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A job of `ownerId` and `kind` (others' jobs are not found), without its input. */
export async function findOwnJob(db: Db | Tx, job: { id: string; ownerId: string; kind: string }) {
  return db
    .selectFrom('jobs')
    .select([
      'id',
      'status',
      'total',
      'done',
      'cancel_requested',
      'error',
      'created_at',
      'finished_at',
      'lease_until',
    ])
    .where('id', '=', job.id)
    .where('owner_id', '=', job.ownerId)
    .where('kind', '=', job.kind)
    .executeTakeFirst();
}

/** A job's input (what it was started with). */
export async function jobInput(db: Db | Tx, id: string): Promise<unknown> {
  const row = await db.selectFrom('jobs').select('input').where('id', '=', id).executeTakeFirstOrThrow();
  return row.input;
}

/** Result lines from ordinal `from` on, in the order written, at most `limit`. */
export async function jobResultsFrom(db: Db | Tx, jobId: string, from: number, limit: number) {
  return db
    .selectFrom('job_results')
    .select(['ordinal', 'item', 'result'])
    .where('job_id', '=', jobId)
    .where('ordinal', '>=', from)
    .orderBy('ordinal')
    .limit(limit)
    .execute();
}
