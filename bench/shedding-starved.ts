// npm run bench:shedding-starved [-- rounds seconds]   (BURNERS=6, OPEN_RATE=1000 by default)
// Load shedding on a CPU-starved host: the portal (production mode on PostgreSQL) beside CPU
// burners (busy loops, three per core of the 2-core machine), loaded with GET /api/user by a
// signed-in vendor, shedding on (the defaults) and off in interleaved rounds, in two shapes of load:
// - closed: 300 connections, each sending its next request when the last is answered;
// - open: requests arriving at a fixed rate above what the starved instance can answer (people do
//   not wait for each other), each given up after 5 s (the proxy's read timeout).
// Prints, per load and setting, the answers (200), the shed ones (503), the ones given up or
// failed, and the p50/p99 latency of the successful ones. The question: does shedding on a starved
// host answer at least as many requests successfully as no shedding, with a lower p99?
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { createBenchDatabase, createPortal, production, signInWhenSettled } from './portals';
import { startNode } from './processes';
import { median, printTable, type BenchRow } from './table';

const [rounds = 2, seconds = 15] = process.argv.slice(2).map(Number);
const BURNERS = Number(process.env.BURNERS ?? 6);
const serverScript = new URL('../apps/server/dist/server.js', import.meta.url).pathname;

/** The two shapes of load (see above). */
const loads = {
  closed: { connections: 300 },
  open: { connections: 1000, overallRate: Number(process.env.OPEN_RATE ?? 1000), timeout: 5 },
} as const;
type Shape = keyof typeof loads;

const settings = {
  'shedding on (defaults)': {},
  'shedding off': { SHED_MAX_EVENT_LOOP_DELAY_MS: '0', SHED_MAX_POOL_WAITING: '0' },
} as const;

interface Outcome {
  ok: number;
  shed: number;
  other: number;
  p50: number;
  p99: number;
}

function burners(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

async function loadOnce(
  url: string,
  headers: Record<string, string>,
  shape: Shape,
  duration: number,
): Promise<Outcome> {
  const served: number[] = [];
  let shed = 0;
  let other = 0;
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      { url, headers, duration, ...loads[shape] },
      (error: Error | null, result) => {
        if (error) return reject(error);
        other += result.errors; // given up (timeouts) or failed
        resolve();
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) served.push(ms);
      else if (status === 503) shed += 1;
      else other += 1;
    });
  });
  served.sort((a, b) => a - b);
  const at = (q: number) => served[Math.min(served.length - 1, Math.floor(q * served.length))] ?? 0;
  return { ok: served.length, shed, other, p50: at(0.5), p99: at(0.99) };
}

/**
 * Runs the comparison on `databaseUrl`'s server (a database of the bench's own) and returns its
 * rows: per load, successful answers and p99 with shedding on beside off (goals: at least as many
 * successes, a lower p99).
 */
export async function benchStarvedShedding(
  databaseUrl: string,
  runs = rounds,
  runSeconds = seconds,
): Promise<BenchRow[]> {
  const { env } = await createPortal(serverScript, production(databaseUrl));
  const results = new Map<string, Outcome[]>();
  for (let round = 0; round < runs; round++) {
    for (const shape of Object.keys(loads) as Shape[]) {
      for (const [shedding, extra] of Object.entries(settings)) {
        const server = await startNode(
          serverScript,
          (port) => ({ ...env(port), LOG_LEVEL: 'warn', ...extra }),
          '/readyz',
        );
        const hogs = burners(BURNERS);
        try {
          const headers = await signInWhenSettled(server.url);
          const outcome = await loadOnce(`${server.url}/api/user`, headers, shape, runSeconds);
          const key = `${shape}|${shedding}`;
          results.set(key, [...(results.get(key) ?? []), outcome]);
        } finally {
          for (const hog of hogs) hog.kill('SIGKILL');
          await server.stop();
        }
      }
    }
  }
  const total = (shape: Shape, shedding: keyof typeof settings) => {
    const outcomes = results.get(`${shape}|${shedding}`) ?? [];
    const sum = (key: keyof Outcome) => outcomes.reduce((all, o) => all + o[key], 0);
    return {
      ok: sum('ok'),
      shed: sum('shed'),
      other: sum('other'),
      p50: median(outcomes.map((o) => o.p50)),
      p99: median(outcomes.map((o) => o.p99)),
    };
  };
  const rows: BenchRow[] = [];
  for (const shape of Object.keys(loads) as Shape[]) {
    const on = total(shape, 'shedding on (defaults)');
    const off = total(shape, 'shedding off');
    const describe = (t: ReturnType<typeof total>) =>
      `${t.ok} answered, ${t.shed} shed, ${t.other} given up; p50 ${Math.round(t.p50)} ms, p99 ${Math.round(t.p99)} ms`;
    const what = `starved host (${BURNERS} CPU burners), ${shape} load (${shape === 'open' ? `${loads.open.overallRate} req/s, 5 s patience` : `${loads.closed.connections} connections`})`;
    rows.push({
      figure: `${what}: successful answers, shedding on ÷ off`,
      value: off.ok > 0 ? on.ok / off.ok : null,
      unit: '×',
      goal: { atLeast: 1 },
      note: `on: ${describe(on)}; off: ${describe(off)}; ${runs} x ${runSeconds} s`,
    });
    rows.push({
      figure: `${what}: p99 of successful answers, shedding on ÷ off`,
      value: off.p99 > 0 ? on.p99 / off.p99 : null,
      unit: '×',
      goal: { atMost: 1 },
    });
  }
  return rows;
}

// Run directly: npm run bench:shedding-starved
if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await createBenchDatabase();
  if (!database) throw new Error('needs PostgreSQL');
  try {
    printTable(await benchStarvedShedding(database.url));
  } finally {
    await database.drop();
  }
}
