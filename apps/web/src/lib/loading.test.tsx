import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useIsLoading, withLoading } from './loading';

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('loading overlay flag', () => {
  it('stays up until the last of overlapping work ends', async () => {
    const { result } = renderHook(() => useIsLoading());
    const first = deferred();
    const second = deferred();
    let firstDone: Promise<void> = Promise.resolve();
    let secondDone: Promise<void> = Promise.resolve();
    act(() => {
      firstDone = withLoading(() => first.promise);
      secondDone = withLoading(() => second.promise);
    });
    expect(result.current).toBe(true);
    await act(async () => {
      first.resolve();
      await firstDone;
    });
    expect(result.current).toBe(true);
    await act(async () => {
      second.resolve();
      await secondDone;
    });
    expect(result.current).toBe(false);
  });

  it('comes down when work fails', async () => {
    const { result } = renderHook(() => useIsLoading());
    await act(async () => {
      await withLoading(() => Promise.reject(new Error('boom'))).catch(() => undefined);
    });
    expect(result.current).toBe(false);
  });
});
