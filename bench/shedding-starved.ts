// npm run bench:shedding-starved [-- rounds seconds]   (BURNERS=6, OPEN_FACTORS=0.5,1.5,2)
// Load shedding on a CPU-starved host: the portal (production mode on PostgreSQL) beside CPU
// burners (busy loops, three per core of the 2-core machine), loaded with GET /api/user by a
// signed-in vendor, shedding on (the defaults) and off in interleaved runs, in two shapes of load:
// - closed: 300 connections, each sending its next request when the last is answered. Shedding
//   off gives the starved instance's capacity (answers a second), measured first;
// - open: requests arriving at fixed multiples of that capacity (OPEN_FACTORS), whatever becomes
//   of the earlier ones, as people arrive (bench/open-load.ts), each caller waiting at most 5 s
//   (the proxy's read timeout) from its arrival. Below 1 the instance keeps up; above 1 it cannot,
//   whatever the host's speed, because the rate is set from what this host just measured.
// Prints, per load and setting, the 200s within the patience, the 503s, the callers who gave up
// (or failed), and the p50/p99 of the 200s. The questions: overloaded, does shedding answer at
// least as many callers successfully as no shedding, with a lower p99? Not overloaded, does it
// cost nothing (on ≈ off)?
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { openLoad } from './open-load';
import { createBenchDatabase, createPortal, production, signInWhenSettled } from './portals';
import { startNode } from './processes';
import { printTable, type BenchRow } from './table';

const [rounds = 2, seconds = 10] = process.argv.slice(2).map(Number);
const BURNERS = Number(process.env.BURNERS ?? 6);
const OPEN_FACTORS = (process.env.OPEN_FACTORS ?? '0.5,1.5,2').split(',').map(Number);
const serverScript = new URL('../apps/server/dist/server.js', import.meta.url).pathname;

const CLOSED_CONNECTIONS = 300;
/** A caller's patience: the load balancer's read timeout in docs/OPERATIONS.md. */
const PATIENCE_MS = 5_000;
/** Enough connections that the client's own limit is not what holds callers back. */
const OPEN_SOCKETS = 8_000;
/** Each started instance is warmed up (its code compiled) before it is measured. */
const WARMUP_SECONDS = 2;

const settings = {
  on: {},
  off: { SHED_MAX_EVENT_LOOP_DELAY_MS: '0', SHED_MAX_POOL_WAITING: '0' },
} as const;
type Shedding = keyof typeof settings;

interface Outcome {
  ok: number;
  shed: number;
  gaveUp: number;
  /** 200s within the patience, their times (ms, sorted). */
  served: number[];
}

function burners(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

async function closedLoad(url: string, headers: Record<string, string>, duration: number): Promise<Outcome> {
  const served: number[] = [];
  let shed = 0;
  let gaveUp = 0;
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      { url, headers, duration, connections: CLOSED_CONNECTIONS, timeout: PATIENCE_MS / 1000 },
      (error: Error | null, result) => {
        if (error) return reject(error);
        gaveUp += result.errors; // timed out (past the patience) or failed
        resolve();
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) served.push(ms);
      else if (status === 503) shed += 1;
      else gaveUp += 1;
    });
  });
  served.sort((a, b) => a - b);
  return { ok: served.length, shed, gaveUp, served };
}

const at = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/**
 * Starts the portal with `shedding` beside the burners, signs in, warms it up and runs `load`;
 * stops both afterwards.
 */
async function measure(
  env: (port: number) => Record<string, string>,
  shedding: Shedding,
  load: (url: string, headers: Record<string, string>) => Promise<Outcome>,
): Promise<Outcome> {
  const server = await startNode(
    serverScript,
    (port) => ({ ...env(port), LOG_LEVEL: 'warn', ...settings[shedding] }),
    '/readyz',
  );
  const hogs = burners(BURNERS);
  try {
    const headers = await signInWhenSettled(server.url);
    const url = `${server.url}/api/user`;
    await autocannon({ url, headers, duration: WARMUP_SECONDS, connections: 50 });
    return await load(url, headers);
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
    await server.stop();
  }
}

interface Row {
  load: string;
  shedding: Shedding;
  outcomes: Outcome[];
  loadAverage: number[];
}

/** Sums of a row's runs, and the p50/p99 of all their 200s together. */
function total(row: Row) {
  const sum = (key: 'ok' | 'shed' | 'gaveUp') => row.outcomes.reduce((all, o) => all + o[key], 0);
  const served = row.outcomes.flatMap((o) => o.served).sort((a, b) => a - b);
  return {
    ok: sum('ok'),
    shed: sum('shed'),
    gaveUp: sum('gaveUp'),
    p50: at(served, 0.5),
    p99: at(served, 0.99),
  };
}

/** The detailed table: one line per load and setting. */
function printOutcomes(rows: Row[], capacity: number, runSeconds: number, runs: number): void {
  console.log(
    `\nStarved host: ${BURNERS} CPU burners beside the portal; capacity measured (closed load, shedding off): ` +
      `${Math.round(capacity)} answers/s; ${runs} run(s) of ${runSeconds} s per line; patience ${PATIENCE_MS / 1000} s`,
  );
  const header = [
    'load',
    'shedding',
    'answered 200 in patience',
    'shed 503',
    'gave up / failed',
    'p50 of 200s',
    'p99 of 200s',
    'load average',
  ];
  const cells = rows.map((row) => {
    const t = total(row);
    return [
      row.load,
      row.shedding,
      String(t.ok),
      String(t.shed),
      String(t.gaveUp),
      `${Math.round(t.p50)} ms`,
      `${Math.round(t.p99)} ms`,
      row.loadAverage.map((l) => l.toFixed(1)).join(', '),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const c of cells) console.log(line(c));
  console.log('');
}

/**
 * Runs the comparison on `databaseUrl`'s server (a database of the bench's own) and returns its
 * rows: per load, successful answers and p99 with shedding on beside off (goals: overloaded, at
 * least as many successes and a lower p99; not overloaded, at least 0.97 of the successes).
 */
export async function benchStarvedShedding(
  databaseUrl: string,
  runs = rounds,
  runSeconds = seconds,
): Promise<BenchRow[]> {
  const { env } = await createPortal(serverScript, production(databaseUrl));
  const table: Row[] = [];
  // Runs alternate which setting goes first, so neither always follows the other.
  const orders: Shedding[][] = [
    ['off', 'on'],
    ['on', 'off'],
  ];
  const run = async (
    load: string,
    fn: (url: string, headers: Record<string, string>) => Promise<Outcome>,
  ) => {
    const row = (shedding: Shedding) => {
      let found = table.find((r) => r.load === load && r.shedding === shedding);
      if (!found) table.push((found = { load, shedding, outcomes: [], loadAverage: [] }));
      return found;
    };
    row('on');
    row('off');
    for (let i = 0; i < runs; i++) {
      for (const shedding of orders[i % 2]!) {
        const outcome = await measure(env, shedding, fn);
        row(shedding).outcomes.push(outcome);
        row(shedding).loadAverage.push(loadavg()[0]!);
      }
    }
  };

  const closed = `closed, ${CLOSED_CONNECTIONS} connections`;
  await run(closed, (url, headers) => closedLoad(url, headers, runSeconds));
  const capacity =
    total(table.find((r) => r.load === closed && r.shedding === 'off')!).ok / (runs * runSeconds);
  for (const factor of OPEN_FACTORS) {
    const rate = Math.max(1, Math.round(capacity * factor));
    await run(`open, ${factor} x capacity (${rate} req/s)`, async (url, headers) => {
      const o = await openLoad(url, headers, {
        rate,
        seconds: runSeconds,
        patienceMs: PATIENCE_MS,
        sockets: OPEN_SOCKETS,
      });
      return { ok: o.served.length, shed: o.shed, gaveUp: o.gaveUp + o.failed, served: o.served };
    });
  }
  printOutcomes(table, capacity, runSeconds, runs);

  const rows: BenchRow[] = [
    {
      figure: `starved host (${BURNERS} CPU burners): capacity, closed load with shedding off`,
      value: capacity,
      unit: 'req/s',
      note: `${runs} x ${runSeconds} s; sets the open loads' rates`,
    },
  ];
  for (const load of new Set(table.map((r) => r.load))) {
    const on = total(table.find((r) => r.load === load && r.shedding === 'on')!);
    const off = total(table.find((r) => r.load === load && r.shedding === 'off')!);
    const factor = /open, ([\d.]+) x/.exec(load);
    const overloaded = factor !== null && Number(factor[1]) > 1;
    const describe = (t: ReturnType<typeof total>) =>
      `${t.ok} answered, ${t.shed} shed, ${t.gaveUp} gave up; p50 ${Math.round(t.p50)} ms, p99 ${Math.round(t.p99)} ms`;
    rows.push({
      figure: `starved host, ${load}: answered in ${PATIENCE_MS / 1000} s, shedding on ÷ off`,
      value: off.ok > 0 ? on.ok / off.ok : null,
      unit: '×',
      // Overloaded, shedding must answer at least as many; otherwise it must cost next to nothing.
      goal: { atLeast: overloaded ? 1 : 0.97 },
      note: `on: ${describe(on)}; off: ${describe(off)}; ${runs} x ${runSeconds} s`,
    });
    if (overloaded) {
      rows.push({
        figure: `starved host, ${load}: p99 of the 200s, shedding on ÷ off`,
        value: off.p99 > 0 ? on.p99 / off.p99 : null,
        unit: '×',
        goal: { atMost: 1 },
      });
    }
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
