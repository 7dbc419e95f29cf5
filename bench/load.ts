// Throughput under load with autocannon: 50 connections, a warm-up, then the measured run.
// BENCH_QUICK=1 shortens both for development; the figures are then only indicative.
import autocannon from 'autocannon';

export const quick = Boolean(process.env.BENCH_QUICK);
const CONNECTIONS = 50;
const WARMUP_SECONDS = quick ? 1 : 5;
const DURATION_SECONDS = quick ? 3 : 20;

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Highest RSS sampled during the measured run, when a sampler was given. */
  peakRssMb: number | null;
  /** The server's CPU time per request over the measured run (µs), when its clock was given. */
  cpuUsPerRequest: number | null;
}

export interface LoadOptions {
  /** The server's resident memory (MB), sampled every 250 ms while measuring. */
  rss?: () => number;
  /** The server's CPU time so far (ms), read around the measured run. */
  cpuMs?: () => number;
  warmupSeconds?: number;
  durationSeconds?: number;
}

function run(url: string, headers: Record<string, string>, duration: number) {
  return autocannon({ url, headers, connections: CONNECTIONS, duration });
}

/** Warms up, then measures (with the server's memory and CPU time, when their readers are given). */
export async function measureLoad(
  url: string,
  headers: Record<string, string> = {},
  options: LoadOptions = {},
): Promise<LoadResult> {
  const { rss, cpuMs } = options;
  await run(url, headers, options.warmupSeconds ?? WARMUP_SECONDS);
  let peak: number | null = null;
  const sampler = rss
    ? setInterval(() => {
        peak = Math.max(peak ?? 0, rss());
      }, 250)
    : undefined;
  try {
    const cpuBefore = cpuMs?.();
    const result = await run(url, headers, options.durationSeconds ?? DURATION_SECONDS);
    const cpuUsPerRequest =
      cpuMs && cpuBefore !== undefined ? ((cpuMs() - cpuBefore) * 1000) / result.requests.total : null;
    return {
      requestsPerSecond: result.requests.average,
      p99Ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      peakRssMb: peak,
      cpuUsPerRequest,
    };
  } finally {
    clearInterval(sampler);
  }
}

export const loadDescription = `${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up, ${DURATION_SECONDS} s measured`;

/** One connection's own request, sent again and again: e.g. a signed-in session of its own. */
export interface OwnRequest {
  path: string;
  headers: Record<string, string>;
}

/**
 * Throughput with one connection per entry of `each`, every connection sending its own request
 * (autocannon's setupClient): 50 distinct sessions, 50 connections. A loop of fetch calls in the
 * bench's own process saturates first (it measured about as many requests a second whatever the
 * server was), so the load generator here is autocannon, as in measureLoad.
 */
export async function measureEach(base: string, each: OwnRequest[], seconds: number, warmupSeconds = 2) {
  const once = (duration: number) => {
    let next = 0;
    return autocannon({
      url: base,
      connections: each.length,
      duration,
      setupClient(client) {
        const own = each[next++ % each.length]!;
        client.setRequests([{ method: 'GET', path: own.path, headers: own.headers }]);
      },
    });
  };
  await once(warmupSeconds);
  const result = await once(seconds);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    notOk: result.non2xx + result.errors,
  };
}
