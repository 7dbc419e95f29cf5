import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { governanceSettings, type GovernanceSettings, type RiskTier } from '@pra/contracts';
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db, Tx } from '../../platform/db';
import * as governance from '../../store/governance';

/** What a sweep needs from the app: the database, the one clock, settings, a log. */
export interface SweepDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'PORTAL_TIME_ZONE' | 'HOSPITAL_NAME' | 'publicUrl' | 'INFOSEC_EMAIL'>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** One sweep as its steps see it: `at` is the sweep's instant, read once from the clock. */
export interface Sweep extends SweepDeps {
  at: Date;
  /** Each tier's settings, read once per sweep. */
  policies: Record<RiskTier, GovernanceSettings>;
  /** Renews the lease (steps call it between batches); throws LeaseLost when another took it. */
  keepLease(): Promise<void>;
}

export interface StepOutcome {
  /** Rows changed (grants ended, mails queued, ...). */
  done: number;
  /** Rows whose transaction failed: logged, retried on the next sweep. */
  failed: number;
}

/** A step of the sweep (GOVERNANCE.md §2.2): steps run in the order of steps.ts's list. */
export interface GovernanceStep {
  /** Short name for logs, the summary and `admin governance status`. */
  name: string;
  run(sweep: Sweep): Promise<StepOutcome>;
  /** What the step would do within the next `hours` (for `governance status`), if it can say. */
  due?(sweep: Sweep, until: Date): Promise<number>;
}

export class LeaseLost extends Error {
  constructor() {
    super('the governance sweep lease was taken over by another instance');
  }
}

/** Rows per batch; the lease is renewed between batches. */
export const BATCH_SIZE = 500;
/** How long a lease lasts without renewal (a killed instance's lease frees itself after this). */
export const LEASE_MS = 10 * 60_000;

/**
 * Works through the rows `load` finds, in batches of BATCH_SIZE ordered by the rows' own key
 * (`load(after, limit)` answers the rows after `after`, or from the start for null): each row in
 * its own transaction (the change, its audit event and its mail commit together or not at all);
 * a row that fails is logged and left for the next sweep, and never stops the others.
 * `handle` answers whether it changed something (a row found not due any more answers false).
 */
export async function eachRow<Row>(
  sweep: Sweep,
  step: string,
  load: (after: Row | null, limit: number) => Promise<Row[]>,
  handle: (tx: Tx, row: Row) => Promise<boolean>,
): Promise<StepOutcome> {
  const outcome: StepOutcome = { done: 0, failed: 0 };
  let after: Row | null = null;
  for (;;) {
    const rows = await load(after, BATCH_SIZE);
    for (const row of rows) {
      try {
        if (await sweep.db.transaction().execute((tx) => handle(tx, row))) outcome.done += 1;
      } catch (error) {
        if (error instanceof LeaseLost) throw error;
        outcome.failed += 1;
        sweep.log.error({ err: error, step }, 'governance sweep: a row failed; it is retried next sweep');
      }
    }
    if (rows.length < BATCH_SIZE) return outcome;
    after = rows.at(-1) ?? null;
    await sweep.keepLease();
  }
}

/**
 * Like eachRow, for a step whose rows are cheaper together: each batch is handled in one
 * transaction by `handle` (set-based statements; it answers how many rows it changed). When that
 * transaction fails, its rows are handled again one per transaction, so one bad row is logged and
 * left for the next sweep without holding back the others, as with eachRow.
 */
export async function eachBatch<Row>(
  sweep: Sweep,
  step: string,
  load: (after: Row | null, limit: number) => Promise<Row[]>,
  handle: (tx: Tx, rows: readonly Row[]) => Promise<number>,
): Promise<StepOutcome> {
  const outcome: StepOutcome = { done: 0, failed: 0 };
  let after: Row | null = null;
  for (;;) {
    const rows = await load(after, BATCH_SIZE);
    try {
      if (rows.length > 0) outcome.done += await sweep.db.transaction().execute((tx) => handle(tx, rows));
    } catch (error) {
      if (error instanceof LeaseLost) throw error;
      sweep.log.warn({ err: error, step }, 'governance sweep: a batch failed; its rows go one by one');
      for (const row of rows) {
        try {
          outcome.done += await sweep.db.transaction().execute((tx) => handle(tx, [row]));
        } catch (rowError) {
          if (rowError instanceof LeaseLost) throw rowError;
          outcome.failed += 1;
          sweep.log.error(
            { err: rowError, step },
            'governance sweep: a row failed; it is retried next sweep',
          );
        }
      }
    }
    if (rows.length < BATCH_SIZE) return outcome;
    after = rows.at(-1) ?? null;
    await sweep.keepLease();
  }
}

/** Each tier's settings; a row that no longer fits the schema is an operator's error, named. */
export async function readPolicyBook(db: Db | Tx): Promise<Record<RiskTier, GovernanceSettings>> {
  const rows = await governance.readPolicies(db);
  const book: Partial<Record<RiskTier, GovernanceSettings>> = {};
  for (const row of rows) book[row.tier] = governanceSettings.parse(row.settings);
  if (!book.standard || !book.high) throw new Error('governance_policies lacks the standard or high row');
  return book as Record<RiskTier, GovernanceSettings>;
}

export interface SweepResult {
  /** False: another instance holds the lease; nothing was done. */
  ran: boolean;
  at: Date;
  steps: Record<string, StepOutcome | { error: string }>;
}

/** Who holds the lease: this process, told apart from every other (same host or not). */
export function sweepOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * One sweep: takes the lease (or answers `ran: false` when another instance holds it), runs the
 * steps in order (a step that fails is logged and the next one runs), gives the lease back.
 */
export async function runSweep(
  deps: SweepDeps,
  steps: readonly GovernanceStep[],
  owner: string,
): Promise<SweepResult> {
  const at = deps.clock.now();
  const result: SweepResult = { ran: false, at, steps: {} };
  if (!(await governance.takeSweepLease(deps.db, owner, at, new Date(at.getTime() + LEASE_MS))))
    return result;
  result.ran = true;
  try {
    const sweep: Sweep = {
      ...deps,
      at,
      policies: await readPolicyBook(deps.db),
      keepLease: async () => {
        const until = new Date(deps.clock.now().getTime() + LEASE_MS);
        if (!(await governance.renewSweepLease(deps.db, owner, until))) throw new LeaseLost();
      },
    };
    for (const step of steps) {
      try {
        result.steps[step.name] = await step.run(sweep);
      } catch (error) {
        if (error instanceof LeaseLost) throw error;
        deps.log.error({ err: error, step: step.name }, 'governance sweep: a step failed');
        result.steps[step.name] = { error: error instanceof Error ? error.message : String(error) };
      }
      await sweep.keepLease();
    }
  } finally {
    await governance
      .releaseSweepLease(deps.db, owner, deps.clock.now(), { at: at.toISOString(), steps: result.steps })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'governance sweep: lease not released'));
  }
  return result;
}
