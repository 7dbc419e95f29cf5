import { runSweep, sweepOwner, type SweepDeps, type SweepResult } from './sweep';
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
