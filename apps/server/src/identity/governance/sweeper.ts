import type { Config } from '../../config';
import { OffsetClock, systemClock, type Clock } from '../../platform/clock';
import { readSweepState } from '../../store/governance';
import { readClockOffset } from '../../store/settings';
import { readPolicyBook, runSweep, sweepOwner, type Sweep, type SweepDeps, type SweepResult } from './sweep';
import { governanceSteps } from './steps';

/** The first sweep after a start waits this long (the app settles first; a restart loop cannot storm). */
const FIRST_SWEEP_MS = 30_000;

/**
 * The governance sweeper (GOVERNANCE.md §2.2), started beside housekeeping in every instance:
 * every GOVERNANCE_SWEEP_MINUTES it runs the steps of steps.ts; the lease row lets only one
 * instance sweep at a time (the others find it taken and skip that turn).
 */
export function startGovernanceSweeper(
  deps: SweepDeps,
  everyMinutes: number,
): { stop(): Promise<void>; runNow(): Promise<SweepResult> } {
  const owner = sweepOwner();
  let running: Promise<unknown> = Promise.resolve();
  const run = async (): Promise<SweepResult> => {
    const result = await runSweep(deps, governanceSteps, owner);
    if (result.ran) deps.log.info({ steps: result.steps }, 'governance sweep finished');
    return result;
  };
  const tick = () => {
    running = run().catch((error: unknown) =>
      deps.log.warn({ err: error }, 'governance sweep failed; will retry'),
    );
  };
  const first = setTimeout(tick, FIRST_SWEEP_MS);
  first.unref();
  const timer = setInterval(tick, everyMinutes * 60_000);
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
    runNow: run,
  };
}

/** One sweep now, outside the timer (the CLI, POST /dev/governance/run, tests). */
export async function sweepNow(deps: SweepDeps, owner = sweepOwner()): Promise<SweepResult> {
  return runSweep(deps, governanceSteps, owner);
}

/** The clock governance reads outside the server (the CLI): the test clock's offset in standalone TEST_CLOCK mode. */
export async function governanceClock(
  db: SweepDeps['db'],
  config: Pick<Config, 'TEST_CLOCK' | 'isStandalone'>,
): Promise<Clock> {
  return config.TEST_CLOCK && config.isStandalone ? new OffsetClock(await readClockOffset(db)) : systemClock;
}

export interface GovernanceStatus {
  now: Date;
  /** Who holds the lease (or held it last), and until when. */
  lease: { owner: string; leasedUntil: Date; sweeping: boolean };
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastSummary: Record<string, unknown>;
  /** Per step that can say: how many rows fall due within the window. */
  due: Record<string, number>;
}

/** What the sweeper did last and what falls due within `hours` (`admin governance status`). */
export async function governanceStatus(deps: SweepDeps, hours = 24): Promise<GovernanceStatus> {
  const now = deps.clock.now();
  const state = await readSweepState(deps.db);
  const sweep: Sweep = {
    ...deps,
    at: now,
    policies: await readPolicyBook(deps.db),
    keepLease: async () => undefined,
  };
  const until = new Date(now.getTime() + hours * 3_600_000);
  const due: Record<string, number> = {};
  for (const step of governanceSteps) if (step.due) due[step.name] = await step.due(sweep, until);
  const leasedUntil = new Date(state.leased_until);
  return {
    now,
    lease: { owner: state.owner, leasedUntil, sweeping: leasedUntil > now },
    lastStartedAt: state.last_started_at ? new Date(state.last_started_at) : null,
    lastFinishedAt: state.last_finished_at ? new Date(state.last_finished_at) : null,
    lastSummary: state.last_summary,
    due,
  };
}
