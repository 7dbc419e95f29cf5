import { NOT_REACHED, terminateJobMessages, type TerminateJobView } from '@pra/contracts/terminate-vendors';
import { announceJobQueued, type JobKind, type JobStep } from '../../identity/jobs';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Db } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { findAccountById } from '../../store/accounts';
import { isEmployeeBrm } from '../../store/account-kinds';
import {
  findOwnJob,
  insertJob,
  jobInput,
  jobResultsFrom,
  requestJobCancel,
  type JobRow,
} from '../../store/jobs';
import { COULD_NOT_PROCESS, resultLine } from './result-lines';
import { emailFile, settleEmails, type EmailFile } from './terminate-vendors';

export const TERMINATE_JOB = 'terminate-vendors';

interface TerminateInput {
  emails: string[];
  clientAddress: string;
}

/** Most result lines one poll answers (the page asks again from `next`). */
const LINES_PER_POLL = 2_000;

/** The file of a job, worked out once per job and process (every step needs it). */
const files = new Map<string, EmailFile>();
function fileOf(job: JobRow): EmailFile {
  let file = files.get(job.id);
  if (!file) {
    file = emailFile((job.input as unknown as TerminateInput).emails);
    files.clear();
    files.set(job.id, file);
  }
  return file;
}

/**
 * The lines of the unique emails `emails` (settled together in one step): each item of the file
 * naming one of them, the first with its line, later ones as duplicates handled once.
 */
function linesOfItems(file: EmailFile, lines: ReadonlyMap<string, string>): JobStep['results'] {
  const results: JobStep['results'] = [];
  const seen = new Set<string>();
  file.folded.forEach((email, item) => {
    const line = lines.get(email);
    if (line === undefined) return;
    results.push({ item, result: seen.has(email) ? resultLine('duplicate', false) : line });
    seen.add(email);
  });
  return results;
}

/**
 * Terminate Vendors as a job: each step settles the next batch of unique emails (settleEmails, the
 * same statements as the single call) in the step's transaction, so the accounts' changes and the
 * lines saying so commit together: after any interruption the lines are exactly what was done.
 */
export const terminateJobKind: JobKind = {
  kind: TERMINATE_JOB,
  async refusal(tx, job) {
    const owner = await findAccountById(tx, job.owner_id);
    return owner && owner.status === 'active' && isEmployeeBrm(owner)
      ? null
      : terminateJobMessages.ownerRefused;
  },
  async step(tx, job, limit, now) {
    const file = fileOf(job);
    const input = job.input as unknown as TerminateInput;
    const owner = (await findAccountById(tx, job.owner_id))!;
    const batch = file.unique.slice(job.cursor, job.cursor + limit);
    const lines = await settleEmails(
      tx,
      { actor: owner, clientAddress: input.clientAddress, at: now },
      batch,
      false,
    );
    const cursor = job.cursor + batch.length;
    return { results: linesOfItems(file, lines), cursor, finished: cursor >= file.unique.length };
  },
  failItem(job) {
    const file = fileOf(job);
    const email = file.unique[job.cursor]!;
    const cursor = job.cursor + 1;
    return {
      results: linesOfItems(file, new Map([[email, COULD_NOT_PROCESS]])),
      cursor,
      finished: cursor >= file.unique.length,
    };
  },
};

/** Queues the termination of a file's emails; the job worker of some instance starts it at once. */
export async function startTerminateJob(
  ctx: AppContext,
  actor: Account,
  emails: string[],
  clientAddress: string,
): Promise<{ id: string }> {
  const id = await insertJob(ctx.db, {
    kind: TERMINATE_JOB,
    ownerId: actor.id,
    input: { emails, clientAddress } satisfies TerminateInput,
    total: emails.length,
    now: ctx.clock.now(),
  });
  announceJobQueued();
  return { id };
}

/**
 * One of the caller's jobs, its lines from `from` on. A job that stopped (cancelled, failed)
 * answers the lines of the items it did not reach too ({@link NOT_REACHED}), once its own are read.
 */
export async function terminateJobView(
  db: Db,
  actor: Account,
  id: string,
  from: number,
): Promise<TerminateJobView> {
  const job = await findOwnJob(db, { id, ownerId: actor.id, kind: TERMINATE_JOB });
  if (!job) throw new AppError('notFound', terminateJobMessages.notFound);
  const input =
    from === 0 || job.status === 'cancelled' || job.status === 'failed'
      ? ((await jobInput(db, id)) as TerminateInput)
      : null;
  const rows = await jobResultsFrom(db, id, from, LINES_PER_POLL);
  const results = rows.map((r) => ({ item: r.item, result: r.result }));
  let next = from + rows.length;
  const stopped = job.status === 'cancelled' || job.status === 'failed';
  if (stopped && input && from <= job.done && next >= job.done) {
    // The items never reached: every item is either written (one of `done` lines) or not.
    const written = new Set((await jobResultsFrom(db, id, 0, job.total)).map((r) => r.item));
    input.emails.forEach((_, item) => {
      if (!written.has(item)) results.push({ item, result: NOT_REACHED });
    });
    next = job.total;
  }
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    done: job.done,
    cancelRequested: job.cancel_requested,
    error: job.error,
    ...(from === 0 && input && { emails: input.emails }),
    results,
    next,
  };
}

/** Asks one of the caller's jobs to stop before its next batch. */
export async function cancelTerminateJob(
  ctx: AppContext,
  actor: Account,
  id: string,
): Promise<{ id: string }> {
  const asked = await requestJobCancel(ctx.db, {
    id,
    ownerId: actor.id,
    kind: TERMINATE_JOB,
    now: ctx.clock.now(),
  });
  if (asked) return { id };
  const job = await findOwnJob(ctx.db, { id, ownerId: actor.id, kind: TERMINATE_JOB });
  throw new AppError(
    job ? 'conflict' : 'notFound',
    job ? terminateJobMessages.notRunning : terminateJobMessages.notFound,
  );
}
