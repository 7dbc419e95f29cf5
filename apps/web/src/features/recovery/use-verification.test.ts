import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transport } from '../../api/client';
import { useVerification } from './use-verification';

const realFetch = transport.fetch;

/** A server that answers only when told, and records each request's signal. */
function pendingServer() {
  const calls: { url: string; signal: AbortSignal; answer: (data: unknown) => void }[] = [];
  transport.fetch = (url, init) =>
    new Promise((resolve, reject) => {
      const signal = init.signal!;
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      calls.push({
        url,
        signal,
        answer: (data) =>
          resolve(new Response(JSON.stringify(data), { headers: { 'content-type': 'application/json' } })),
      });
    });
  return calls;
}

describe('push and passcode verification', () => {
  afterEach(() => {
    transport.fetch = realFetch;
  });

  it('a new attempt aborts the previous one; Cancel aborts the current one and shows nothing', async () => {
    const calls = pendingServer();
    const onVerified = vi.fn();
    const { result } = renderHook(() => useVerification('jdoe', onVerified));
    act(() => result.current.push());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(result.current.waitingFor).toBe('push');
    act(() => result.current.passcode('123456'));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(result.current.waitingFor).toBe('passcode');
    act(() => result.current.cancel());
    expect(calls[1]!.signal.aborted).toBe(true);
    await waitFor(() => expect(result.current.waitingFor).toBeUndefined());
    expect(result.current.failure).toBeUndefined();
    expect(onVerified).not.toHaveBeenCalled();
    // No client-log call for cancelled requests.
    expect(calls.map((c) => c.url)).toEqual([
      '/api/user/forgot-password/ping-push',
      '/api/user/forgot-password/verify-otp',
    ]);
  });

  it('maps the results to the spec messages', async () => {
    const calls = pendingServer();
    const onVerified = vi.fn();
    const { result } = renderHook(() => useVerification('jdoe', onVerified));
    act(() => result.current.push());
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(async () => calls[0]!.answer({ result: 'failure' }));
    await waitFor(() => expect(result.current.failure).toBe('PingID app verification was declined'));
    act(() => result.current.passcode('123456'));
    await waitFor(() => expect(calls).toHaveLength(2));
    await act(async () => calls[1]!.answer({ result: 'success' }));
    await waitFor(() => expect(onVerified).toHaveBeenCalledOnce());
  });

  it('a push approved by a phone paired today is not a verification: it says the emailed link is needed', async () => {
    const calls = pendingServer();
    const onVerified = vi.fn();
    const { result } = renderHook(() => useVerification('jdoe', onVerified));
    act(() => result.current.push());
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(async () => calls[0]!.answer({ result: 'recentDevice' }));
    await waitFor(() => expect(result.current.failure).toMatch(/paired less than 24 hours ago/));
    expect(result.current.failure).toContain('Send Password Reset Email');
    expect(onVerified).not.toHaveBeenCalled();
  });
});
