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
