/**
 * A health check of another service (the directory, the mail relay) that callers never wait for
 * once it has answered. Its answer is kept for `freshMs`; past that, the next call starts a new
 * probe and is answered from the last answer meanwhile. A service that hangs (a frozen process, or
 * packets dropped) would otherwise hold every caller for the probe's whole timeout, once per
 * cycle: the readiness check, the service check and every page that shows the service's state.
 * Only the very first call, with no answer yet, waits. An answer older than `trustMs` (longer than
 * any probe can take) is no longer believed: `untrusted(ageMs)` says so instead.
 */
export interface LastAnswerOptions<T> {
  /** Asks the service; never rejects (a failure is an answer). */
  probe: () => Promise<T>;
  freshMs: number;
  trustMs: number;
  untrusted: (ageMs: number) => T;
  /** Milliseconds on a monotonic clock (tests move it). */
  now?: () => number;
}

export interface LastAnswer<T> {
  get(): Promise<T>;
}

export function lastAnswer<T>(options: LastAnswerOptions<T>): LastAnswer<T> {
  const now = options.now ?? (() => performance.now());
  let last: { at: number; value: T } | null = null;
  let running: Promise<T> | null = null;
  return {
    get() {
      const age = last ? now() - last.at : Number.POSITIVE_INFINITY;
      if (last && age < options.freshMs) return Promise.resolve(last.value);
      running ??= options
        .probe()
        .then((value) => {
          last = { at: now(), value };
          return value;
        })
        .finally(() => {
          running = null;
        });
      if (!last) return running;
      running.catch(() => {}); // awaited by nobody here; a rejection is the probe's bug, not news
      return Promise.resolve(age < options.trustMs ? last.value : options.untrusted(age));
    },
  };
}
