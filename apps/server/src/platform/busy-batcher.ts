import { settleBatch, type Waiter } from './batch-waiters';

/** How many calls a BusyBatcher runs at once, and how a further one gathers its loads. */
export interface BusyBatcherOptions {
  /** Calls that may run at once (default 1: one after another). */
  inFlight?: number;
  /**
   * When a call runs and another may start beside it: how long (ms) the loads asked meanwhile
   * gather before it starts with them (default 0). Loads that waited for a call to end start at
   * its end, without gathering: they have gathered already.
   */
  gatherMs?: number;
}

/**
 * Loads of different keys run in few calls, batched while busy: a load asked while no call runs
 * starts at once, alone (`loadOne`); the loads asked while one runs are read together in one call
 * of `loadMany` (at most `maxBatch` keys; the rest wait for the next). With `inFlight` 1 that call
 * starts when the running one ends; with more, it starts beside it once its loads have gathered
 * for `gatherMs`, and only a call beyond `inFlight` waits for one to end. An idle instance adds no
 * wait; a busy one does a few statements' work for many callers instead of each holding a
 * connection and the database's CPU for its own. Nothing is cached: a load is answered by a call
 * that starts after it was asked for, so it sees what a call of its own would have seen.
 *
 * `loadMany` answers one value per key, in order (a key asked twice comes twice). When a call
 * fails (or answers a wrong number of values), every load it served fails with its error; the
 * next batch still runs.
 */
export class BusyBatcher<K, V> {
  private running = 0;
  private gathering: ReturnType<typeof setTimeout> | null = null;
  private waiting: Waiter<K, V>[] = [];
  private readonly inFlight: number;
  private readonly gatherMs: number;

  constructor(
    private readonly loadOne: (key: K) => Promise<V>,
    private readonly loadMany: (keys: readonly K[]) => Promise<readonly V[]>,
    private readonly maxBatch: number,
    options: BusyBatcherOptions = {},
  ) {
    this.inFlight = Math.max(1, options.inFlight ?? 1);
    this.gatherMs = Math.max(0, options.gatherMs ?? 0);
  }

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      if (this.running === 0) this.start();
      else this.gather();
    });
  }

  /** A call beside the running ones, once the loads asked now have gathered (when there is room). */
  private gather(): void {
    if (this.gathering || this.running >= this.inFlight || this.waiting.length === 0) return;
    this.gathering = setTimeout(() => {
      this.gathering = null;
      this.start();
    }, this.gatherMs);
  }

  /** Starts a call with what waits (at most maxBatch), and gathers for the next if there is room. */
  private start(): void {
    if (this.running >= this.inFlight) return;
    const batch = this.waiting.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.running += 1;
    const loadOne = this.loadOne;
    const call = batch.length === 1 ? async (keys: readonly K[]) => [await loadOne(keys[0]!)] : this.loadMany;
    void settleBatch(batch, call).finally(() => {
      this.running -= 1;
      // Those that waited for this end start now, those still gathering too when nothing else
      // runs; a gathering beside another call starts its own when it is over.
      if (this.gathering && this.running === 0) {
        clearTimeout(this.gathering);
        this.gathering = null;
      }
      if (!this.gathering) this.start();
    });
    this.gather();
  }
}
