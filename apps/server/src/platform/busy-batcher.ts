import { settleBatch, type Waiter } from './batch-waiters';

/**
 * Loads of different keys run one at a time, and batched while busy: a load asked while none runs
 * starts at once, alone (`loadOne`); the loads asked while one runs wait for it, and then run
 * together in one call of `loadMany` (at most `maxBatch` keys; the rest wait for the next). An idle
 * instance adds no wait; a busy one does one statement's work for many callers instead of each
 * holding a connection and the database's CPU for its own. Nothing is cached: a load is answered
 * by a call that starts after it was asked for, so it sees what a call of its own would have seen.
 *
 * `loadMany` answers one value per key, in order (a key asked twice comes twice). When a call
 * fails (or answers a wrong number of values), every load it served fails with its error; the
 * next batch still runs.
 */
export class BusyBatcher<K, V> {
  private busy = false;
  private waiting: Waiter<K, V>[] = [];

  constructor(
    private readonly loadOne: (key: K) => Promise<V>,
    private readonly loadMany: (keys: readonly K[]) => Promise<readonly V[]>,
    private readonly maxBatch: number,
  ) {}

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      if (!this.busy) this.next();
    });
  }

  /** Exactly one call runs while `busy`; each, when it ends, starts the next with what waits. */
  private next(): void {
    const batch = this.waiting.splice(0, this.maxBatch);
    this.busy = batch.length > 0;
    if (!this.busy) return;
    const loadOne = this.loadOne;
    const call = batch.length === 1 ? async (keys: readonly K[]) => [await loadOne(keys[0]!)] : this.loadMany;
    void settleBatch(batch, call).finally(() => this.next());
  }
}
