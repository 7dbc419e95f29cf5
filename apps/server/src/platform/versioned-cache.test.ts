import { describe, expect, it } from 'vitest';
import { VersionedCache } from './versioned-cache';

/** A computation that counts its calls and answers `value` at `version`. */
function computer(version: number, value: number) {
  const calls = { n: 0 };
  return {
    calls,
    compute: async () => {
      calls.n += 1;
      await Promise.resolve();
      return { version, value };
    },
  };
}

describe('VersionedCache', () => {
  it('answers a kept value while the version stays, and computes again once it moves', async () => {
    const cache = new VersionedCache<number>();
    const first = computer(3, 10);
    expect(await cache.get(3, 'k', first.compute)).toBe(10);
    expect(await cache.get(3, 'k', first.compute)).toBe(10);
    expect(first.calls.n).toBe(1);
    const second = computer(4, 11);
    expect(await cache.get(4, 'k', second.compute)).toBe(11);
    expect(second.calls.n).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('keeps each key apart', async () => {
    const cache = new VersionedCache<number>();
    expect(await cache.get(1, 'a', computer(1, 1).compute)).toBe(1);
    expect(await cache.get(1, 'b', computer(1, 2).compute)).toBe(2);
    expect(await cache.get(1, 'a', computer(1, 99).compute)).toBe(1);
  });

  it('shares one computation between callers missing the same key at the same version', async () => {
    const cache = new VersionedCache<number>();
    const one = computer(5, 42);
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.get(5, 'k', one.compute)));
    expect(answers).toEqual(Array(10).fill(42));
    expect(one.calls.n).toBe(1);
  });

  it('keeps a value computed at a newer version than asked under that version, not the older one', async () => {
    const cache = new VersionedCache<number>();
    // Asked at 7, the database had moved on to 8 by the time the statement ran.
    expect(await cache.get(7, 'k', computer(8, 20).compute)).toBe(20);
    const again = computer(8, 21);
    expect(await cache.get(8, 'k', again.compute)).toBe(20);
    expect(again.calls.n).toBe(0);
    // A caller still at 7 (read before 8 committed) is not answered from 8's value: it computes.
    const late = computer(8, 20);
    expect(await cache.get(7, 'k', late.compute)).toBe(20);
    expect(late.calls.n).toBe(1);
  });

  it('never keeps a value computed at an older version than the newest seen', async () => {
    const cache = new VersionedCache<number>();
    await cache.get(9, 'other', computer(9, 0).compute);
    const old = computer(8, 5);
    expect(await cache.get(8, 'k', old.compute)).toBe(5);
    const now = computer(9, 6);
    expect(await cache.get(9, 'k', now.compute)).toBe(6);
    expect(now.calls.n).toBe(1);
  });

  it('keeps nothing from a failed computation, and the next caller computes again', async () => {
    const cache = new VersionedCache<number>();
    await expect(cache.get(1, 'k', () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect(cache.size).toBe(0);
    expect(await cache.get(1, 'k', computer(1, 3).compute)).toBe(3);
  });

  it('keeps at most `limit` values, dropping the oldest first', async () => {
    const cache = new VersionedCache<number>(3);
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(1, key, computer(1, key.charCodeAt(0)).compute);
    expect(cache.size).toBe(3);
    const a = computer(1, 0);
    await cache.get(1, 'a', a.compute);
    expect(a.calls.n).toBe(1);
    const d = computer(1, 0);
    expect(await cache.get(1, 'd', d.compute)).toBe('d'.charCodeAt(0));
    expect(d.calls.n).toBe(0);
  });
});
