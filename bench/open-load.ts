// Open load: requests arrive at a fixed rate whatever happens to the earlier ones, as people using
// a portal do (nobody waits for a stranger's answer before clicking), and each caller waits at most
// `patienceMs` from the moment it arrived, counting the time its request waits for a connection on
// the client's side too. A load generator with a fixed set of connections (autocannon's
// `overallRate`) instead stops sending while every connection waits: an overloaded server then
// sees fewer arrivals, and the requests that were never sent are counted nowhere.
import http from 'node:http';

export interface OpenLoadOptions {
  /** Arrivals a second. */
  rate: number;
  seconds: number;
  /** How long a caller waits from its arrival before giving up (and closing its connection). */
  patienceMs: number;
  /** At most this many connections at once; more callers wait for one (their patience runs). */
  sockets: number;
  /**
   * Open all `sockets` connections before the first arrival (each with one GET of `warmPath`, all at
   * once) and keep them: the callers then arrive on connections already open, as behind a proxy
   * that keeps its connections to the instance, and the instance reads every request as it comes
   * instead of the kernel holding new connections in its accept queue.
   */
  warmPath?: string;
}

export interface OpenLoadOutcome {
  /** Arrivals (rate x seconds). */
  sent: number;
  /** 200 answers within the patience, with their times from arrival (ms, sorted). */
  served: number[];
  /** 503 answers within the patience. */
  shed: number;
  /** Callers that gave up: no answer within their patience. */
  gaveUp: number;
  /** Other statuses and connection errors. */
  failed: number;
}

/** Runs the open load against `url` (GET) and counts what each caller got. */
export async function openLoad(
  url: string,
  headers: Record<string, string>,
  options: OpenLoadOptions,
): Promise<OpenLoadOutcome> {
  const target = new URL(url);
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.sockets,
    maxFreeSockets: options.sockets,
  });
  const outcome: OpenLoadOutcome = { sent: 0, served: [], shed: 0, gaveUp: 0, failed: 0 };
  const total = Math.round(options.rate * options.seconds);
  if (total === 0) return outcome;
  if (options.warmPath) {
    const warmPath = options.warmPath;
    await Promise.all(
      Array.from(
        { length: options.sockets },
        () =>
          new Promise<void>((resolve) => {
            const request = http.get(
              { host: target.hostname, port: target.port, path: warmPath, agent },
              (response) => {
                response.resume();
                response.on('end', resolve);
                response.on('error', () => resolve());
              },
            );
            request.on('error', () => resolve());
            // A connection the instance never answers is given up, not waited for forever.
            request.setTimeout(options.patienceMs, () => request.destroy());
          }),
      ),
    );
  }
  let settled = 0;
  let allSettled: () => void = () => {};
  const finished = new Promise<void>((resolve) => (allSettled = resolve));

  const arrive = (arrival: number) => {
    let done = false;
    const settle = (record: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(patience);
      record();
      settled += 1;
      if (settled === total) allSettled();
    };
    const request = http.get(
      { host: target.hostname, port: target.port, path: target.pathname, headers, agent },
      (response) => {
        response.resume();
        response.on('end', () => {
          const ms = performance.now() - arrival;
          settle(() => {
            if (ms > options.patienceMs) outcome.gaveUp += 1;
            else if (response.statusCode === 200) outcome.served.push(ms);
            else if (response.statusCode === 503) outcome.shed += 1;
            else outcome.failed += 1;
          });
        });
        response.on('error', () => settle(() => (outcome.failed += 1)));
      },
    );
    request.on('error', () => settle(() => (outcome.failed += 1)));
    const patience = setTimeout(
      () => {
        settle(() => (outcome.gaveUp += 1));
        request.destroy();
      },
      Math.max(0, arrival + options.patienceMs - performance.now()),
    );
  };

  // Every few milliseconds, send the arrivals that are due: each is stamped with the moment it
  // was due, so a client running late counts against the server's answer time, never for it.
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * options.rate));
      while (outcome.sent < due) {
        arrive(started + (outcome.sent / options.rate) * 1000);
        outcome.sent += 1;
      }
      if (outcome.sent >= total) return resolve();
      setTimeout(tick, 2);
    };
    tick();
  });
  await finished;
  agent.destroy();
  outcome.served.sort((a, b) => a - b);
  return outcome;
}
