import { settleBatch, type Waiter } from './batch-waiters';

/**
 * Loads requested in the same turn of the event loop, answered by one call of `loadBatch`: under
 * load one database round trip serves many requests instead of each holding a pool connection
 * for its own. Nothing is cached: every load waits for a batch that starts after it was asked
 * for, so it sees exactly what a call of its own would have seen.
 *
 * `loadBatch` gets the keys in the order they were asked for (a key asked twice comes twice) and
 * answers one value per key, in that order. When it fails (or answers a wrong number of values),
 * every load of the batch fails with its error. A batch carries at most `maxBatch` keys; the rest
 * wait for the next turn.
 */
export class SameTickBatcher<K, V> {
  private waiting: Waiter<K, V>[] = [];

  constructor(
    private readonly loadBatch: (keys: readonly K[]) => Promise<readonly V[]>,
    private readonly maxBatch = 200,
  ) {}

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      if (this.waiting.push({ key, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.waiting.splice(0, this.maxBatch);
    if (this.waiting.length) setImmediate(() => this.flush());
    // Fire and forget: settleBatch settles every load of the batch itself, a failed call included.
    void settleBatch(batch, this.loadBatch);
  }
}
