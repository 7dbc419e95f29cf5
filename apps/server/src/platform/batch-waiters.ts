/** A load waiting for its batch: its key, and how its promise is settled. */
export interface Waiter<K, V> {
  key: K;
  resolve(value: V): void;
  reject(error: unknown): void;
}

/**
 * Runs `call` on the batch's keys (in order) and settles each waiter with its value. When the call
 * fails, or answers a wrong number of values, every waiter of the batch fails with its error. Never
 * rejects itself.
 */
export async function settleBatch<K, V>(
  batch: readonly Waiter<K, V>[],
  call: (keys: readonly K[]) => Promise<readonly V[]>,
): Promise<void> {
  try {
    const values = await call(batch.map((w) => w.key));
    if (values.length !== batch.length) {
      throw new Error(`a batch of ${batch.length} keys answered ${values.length} values`);
    }
    values.forEach((value, i) => batch[i]!.resolve(value));
  } catch (error) {
    for (const w of batch) w.reject(error);
  }
}
