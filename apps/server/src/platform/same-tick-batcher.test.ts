import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SameTickBatcher } from './same-tick-batcher';

/** A batcher over `answer`, recording the keys of every batch it makes. */
function recording(answer: (keys: readonly number[]) => Promise<readonly string[]>, maxBatch?: number) {
  const batches: number[][] = [];
  const batcher = new SameTickBatcher<number, string>((keys) => {
    batches.push([...keys]);
    return answer(keys);
  }, maxBatch);
  return { batcher, batches };
}

const echo = async (keys: readonly number[]) => keys.map((k) => `value ${k}`);

describe('the same-tick batcher', () => {
  it('answers N loads of one turn with one call, each load with its own key’s value', async () => {
    const { batcher, batches } = recording(echo);
    const keys = [5, 1, 5, 9, 2, 7, 3, 8];
    const values = await Promise.all(keys.map((k) => batcher.load(k)));
    expect(batches).toEqual([keys]);
    expect(values).toEqual(keys.map((k) => `value ${k}`));
  });

  it('makes a new call for loads of a later turn', async () => {
    const { batcher, batches } = recording(echo);
    const first = Promise.all([batcher.load(1), batcher.load(2)]);
    await nextTurn();
    const second = Promise.all([batcher.load(3)]);
    expect(await first).toEqual(['value 1', 'value 2']);
    expect(await second).toEqual(['value 3']);
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('fails each waiter of a failed batch with its error, and answers the next batch', async () => {
    const failure = new Error('database gone');
    let fail = true;
    const { batcher, batches } = recording(async (keys) => {
      if (fail) throw failure;
      return echo(keys);
    });
    const outcomes = await Promise.allSettled([batcher.load(1), batcher.load(2), batcher.load(3)]);
    expect(outcomes).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: failure })));
    fail = false;
    expect(await batcher.load(4)).toBe('value 4');
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('fails each waiter when the call answers a wrong number of values', async () => {
    const { batcher } = recording(async (keys) => keys.slice(1).map(String));
    const outcomes = await Promise.allSettled([batcher.load(1), batcher.load(2)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toEqual(
      new Error('a batch of 2 keys answered 1 values'),
    );
  });

  it('carries at most maxBatch keys per call; the rest go in the next turn', async () => {
    const { batcher, batches } = recording(echo, 3);
    const values = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((k) => batcher.load(k)));
    expect(values).toEqual([1, 2, 3, 4, 5, 6, 7].map((k) => `value ${k}`));
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });
});
