import { describe, expect, it } from 'vitest';
import { BusyBatcher } from './busy-batcher';

/** A batcher whose calls are held until the test lets them go; it records every call. */
function held(maxBatch = 3) {
  const calls: { keys: readonly string[]; release(fail?: boolean): void }[] = [];
  const call = (keys: readonly string[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({
        keys,
        release: (fail) => (fail ? reject(new Error('down')) : resolve(keys.map((k) => k.toUpperCase()))),
      });
    });
  const batcher = new BusyBatcher<string, string>(
    async (key) => (await call([key]))[0]!,
    (keys) => call(keys),
    maxBatch,
  );
  return { batcher, calls };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BusyBatcher', () => {
  it('fails the loads of a call that throws before it returns a promise, and goes on with the next', async () => {
    let throws = true;
    const batcher = new BusyBatcher<string, string>(
      (key) => {
        if (throws) throw new Error('refused at once');
        return Promise.resolve(key.toUpperCase());
      },
      (keys) => Promise.resolve(keys.map((k) => k.toUpperCase())),
      3,
    );
    await expect(batcher.load('a')).rejects.toThrow('refused at once');
    throws = false;
    expect(await batcher.load('b')).toBe('B');
  });

  it('runs a load at once when idle, alone', async () => {
    const { batcher, calls } = held();
    const a = batcher.load('a');
    expect(calls.map((c) => c.keys)).toEqual([['a']]);
    calls[0]!.release();
    expect(await a).toBe('A');
  });

  it('batches the loads asked while one runs into one call when it ends, at most maxBatch at a time', async () => {
    const { batcher, calls } = held(3);
    const first = batcher.load('a');
    const rest = ['b', 'c', 'b', 'd'].map((key) => batcher.load(key));
    // Nothing more runs while the first call does.
    expect(calls).toHaveLength(1);
    calls[0]!.release();
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c', 'b']]);
    calls[1]!.release();
    await settle();
    // The one left over goes alone.
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c', 'b'], ['d']]);
    calls[2]!.release();
    expect(await first).toBe('A');
    expect(await Promise.all(rest)).toEqual(['B', 'C', 'B', 'D']);
    // Idle again: the next load starts at once.
    await settle();
    void batcher.load('e');
    expect(calls).toHaveLength(4);
    calls[3]!.release();
  });

  it('a failed call fails only the loads it served; the next batch still runs', async () => {
    const { batcher, calls } = held();
    const first = batcher.load('a');
    const second = [batcher.load('b'), batcher.load('c')];
    calls[0]!.release(true);
    await expect(first).rejects.toThrow('down');
    await settle();
    calls[1]!.release();
    expect(await Promise.all(second)).toEqual(['B', 'C']);
  });

  it('a batch answering the wrong number of values fails its loads', async () => {
    let running: (() => void) | undefined;
    const batcher = new BusyBatcher<string, number>(
      () => new Promise((resolve) => (running = () => resolve(1))),
      async () => [1],
      10,
    );
    const first = batcher.load('a');
    const batch = [batcher.load('b'), batcher.load('c')];
    running!();
    expect(await first).toBe(1);
    for (const load of batch) await expect(load).rejects.toThrow('a batch of 2 keys answered 1 values');
  });
});
