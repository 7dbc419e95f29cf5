// npm run bench:shedding-starved [-- rounds seconds]   (BURNERS=3, OPEN_FACTORS=0.5,2, STARVED_CPU,
// SHEDDING_CONTROL=1 for an A/A control, PROXY=none for the instance alone)
// Load shedding on a CPU-starved host: the portal (production mode on PostgreSQL) pinned to one
// CPU (the last one, or STARVED_CPU) with BURNERS busy loops pinned beside it, so it gets about a
// quarter of a core, loaded with GET /api/user by a signed-in vendor. The load generator (this
// process) and PostgreSQL are not pinned: on a machine with more than one core they are not
// starved with it, so what is measured is the portal's answering, not the client's sending. Two instances, one with shedding on (the defaults) and one with it off, run
// side by side for the whole comparison (an idle one costs next to nothing) and are loaded in
// turn, round after round, each round alternating which goes first: both see the same host.
// - closed: 50 connections, each sending its next request when the last is answered, once per
//   setting: the starved instance's capacity (answers a second, both settings' mean);
// - open: requests arriving at fixed multiples of that capacity (OPEN_FACTORS), whatever becomes
//   of the earlier ones, as people arrive (bench/open-load.ts), each caller waiting at most 5 s
//   (the proxy's read timeout) from its arrival. Below 1 the instance keeps up; above 1 it cannot,
//   whatever the host's speed, because the rate is set from what this host just measured.
// PROXY=nginx (the default) puts each instance behind the shipped nginx configuration
// (deploy/nginx/pra-portal.conf, plain HTTP: TLS is not what is measured), as docs/OPERATIONS.md
// deploys it, with nginx on the other CPUs (a load balancer is another machine): "on" is that
// configuration as shipped (max_conns: nginx sheds what the instance has no room for) with the
// instance's own shedding on; "off" is the same file without max_conns, the instance's shedding off.
// PROXY=none loads the instances directly: the instance's own shedding alone.
// Prints, per load and setting, the 200s within the patience (in total and per run), the 503s
// within it and those the instance decided (its log's 'no longer overloaded' warnings),
// the callers who gave up (or failed), the p50/p99 of the 200s, each round's on ÷ off (the
// spread) and the load average. The questions: overloaded, does shedding answer at least as many
// callers successfully as no shedding, with a lower p99? Not overloaded, does it cost nothing?
// Defaults: 3 rounds of 8 s, about 2.5 minutes in all.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { nginxConf, nginxInstalled, startNginx } from '../apps/server/test/support/nginx';
import { freePort } from '../apps/server/test/support/server-process';
import { openLoad } from './open-load';
import { createBenchDatabase, createPortal, production, signInWhenSettled } from './portals';
import { startNode, waitForHttp } from './processes';
import { printTable, type BenchRow } from './table';

const usage = `npm run bench:shedding-starved [-- rounds seconds]   (defaults: 3 rounds of 8 s)
Load shedding on a CPU-starved host, on and off (docs/OPERATIONS.md "Load shedding"). Settings:
  BURNERS=3          busy loops pinned beside the portal
  OPEN_FACTORS=0.5,2 open loads as multiples of the starved capacity
  STARVED_CPU=<last> the CPU the portal and its burners share (taskset)
  SHEDDING_CONTROL=1 both instances with shedding on: an A/A control of the bench's own spread
  OPEN_KEPT=<n>      the open loads on n connections opened before each run and kept
  PROXY=nginx|none   behind the shipped nginx configuration (default, /usr/sbin/nginx) or direct
Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and taskset.`;
const directRun = import.meta.url === `file://${process.argv[1]}`;
const args = directRun ? process.argv.slice(2) : [];
if (args.includes('--help') || args.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
const [rounds = 3, seconds = 8] = args.map(Number);
if (![rounds, seconds].every((n) => Number.isInteger(n) && n > 0)) {
  console.error(usage);
  process.exit(2);
}
const BURNERS = Number(process.env.BURNERS ?? 3);
/** The CPU the portal and its burners share (taskset). */
const STARVED_CPU = process.env.STARVED_CPU ?? String(Math.max(0, availableParallelism() - 1));
const pinned = ['taskset', '-c', STARVED_CPU];
const OPEN_FACTORS = (process.env.OPEN_FACTORS ?? '0.5,2').split(',').map(Number);
/**
 * OPEN_KEPT=<n>: the open loads' callers use n connections opened before each run and kept (as
 * behind a proxy keeping its connections to the instance), instead of up to OPEN_SOCKETS new ones.
 */
const OPEN_KEPT = Number(process.env.OPEN_KEPT ?? 0);
/** Behind the shipped nginx configuration (the default, where nginx is installed) or direct. */
const PROXY = process.env.PROXY ?? (nginxInstalled ? 'nginx' : 'none');
if (PROXY !== 'nginx' && PROXY !== 'none') {
  console.error(usage);
  process.exit(2);
}
/** nginx runs on the CPUs the portal is not pinned to, as a balancer on its own machine would. */
const proxyCpus = Array.from({ length: availableParallelism() }, (_, cpu) => String(cpu)).filter(
  (cpu) => cpu !== STARVED_CPU,
);
const serverScript = new URL('../apps/server/dist/server.js', import.meta.url).pathname;

const CLOSED_CONNECTIONS = 50;
/** A caller's patience: the load balancer's read timeout in docs/OPERATIONS.md. */
const PATIENCE_MS = 5_000;
/** Enough connections that the client's own limit is not what holds callers back. */
const OPEN_SOCKETS = 8_000;
/** Each started instance is warmed up (its code compiled) before it is measured. */
const WARMUP_SECONDS = 2;

/**
 * SHEDDING_CONTROL=1 runs the "off" instance with shedding on too: two identical instances, so the
 * on ÷ off figures show the bench's own spread (an A/A control), not shedding's effect.
 */
const control = process.env.SHEDDING_CONTROL === '1';
/** What "on" and "off" mean in the printed rows. */
const settingsSaid =
  PROXY === 'nginx'
    ? `behind nginx (deploy/nginx/pra-portal.conf); on: as shipped, max_conns and the instance's shedding; off: ${control ? 'the same' : 'no max_conns, the instance not shedding'}`
    : `direct to the instance; on: its shedding as by default; off: ${control ? 'the same' : 'its shedding off'}`;
const settings: Record<'on' | 'off', Record<string, string>> = {
  on: {},
  off: control ? {} : { SHED_MAX_EVENT_LOOP_DELAY_MS: '0', SHED_MAX_POOL_WAITING: '0' },
};
type Shedding = keyof typeof settings;

interface Outcome {
  ok: number;
  /** 503s the callers got within their patience. */
  shed: number;
  /** 503s the instance decided (requests and connections), in time or not. */
  decided?: number;
  gaveUp: number;
  /** 200s within the patience, their times (ms, sorted). */
  served: number[];
}

function burners(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(pinned[0]!, [...pinned.slice(1), process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' }),
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

/** One instance per setting, started once and kept for the whole comparison. */
type Instances = Record<
  Shedding,
  { url: string; headers: Record<string, string>; shedSoFar: () => number; stop(): Promise<void> }
>;

/**
 * What the instance says it shed so far (requests and refused connections), from its log's
 * 'no longer overloaded' warnings: with the 503s callers got in time, it tells whether shedding
 * engaged and whether its answers arrived too late.
 */
function shedSoFar(lines: string[]): number {
  let shed = 0;
  for (const line of lines) {
    if (!line.includes('no longer overloaded')) continue;
    const fields = JSON.parse(line) as { shedRequests?: number; refusedConnections?: number };
    shed += (fields.shedRequests ?? 0) + (fields.refusedConnections ?? 0);
  }
  return shed;
}

/**
 * nginx with the shipped configuration in front of the instance on `upstreamPort` (plain HTTP,
 * max_conns kept or left out), on the CPUs the portal is not pinned to; its URL and how to stop it.
 */
async function startProxy(upstreamPort: number, maxConns: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'pra-bench-nginx-'));
  const port = await freePort();
  // 9,000 connections: the open loads' 8,000 callers and the instance's side.
  const conf = nginxConf(dir, port, [upstreamPort], { tls: false, maxConns, workerConnections: 9_000 });
  const proxy = startNginx(dir, conf, proxyCpus.length > 0 ? ['taskset', '-c', proxyCpus.join(',')] : []);
  const url = `http://localhost:${port}`;
  try {
    await waitForHttp(`${url}/healthz`, proxy.child, () => proxy.output.join(''));
  } catch (error) {
    proxy.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    stop() {
      proxy.child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startInstances(env: (port: number) => Record<string, string>): Promise<Instances> {
  const started: Partial<Instances> = {};
  try {
    for (const shedding of ['on', 'off'] as const) {
      const server = await startNode(
        serverScript,
        (port) => ({ ...env(port), LOG_LEVEL: 'warn', ...settings[shedding] }),
        '/readyz',
        [],
        pinned,
        true,
      );
      const proxy =
        PROXY === 'nginx'
          ? await startProxy(Number(new URL(server.url).port), shedding === 'on' || control).catch(
              async (error: unknown) => {
                await server.stop();
                throw error;
              },
            )
          : undefined;
      const url = proxy?.url ?? server.url;
      started[shedding] = {
        url,
        headers: {},
        shedSoFar: () => shedSoFar(server.outputLines()),
        stop: async () => {
          proxy?.stop();
          await server.stop();
        },
      };
      started[shedding].headers = await signInWhenSettled(server.url);
      await autocannon({
        url: `${url}/api/user`,
        headers: started[shedding].headers,
        duration: WARMUP_SECONDS,
        connections: 50,
      });
    }
    return started as Instances;
  } catch (error) {
    await Promise.all(Object.values(started).map((instance) => instance.stop()));
    throw error;
  }
}

/**
 * Before each run, the instance has finished the last run's work: an overloaded instance keeps
 * working through requests whose callers left (seconds of it), and the next run must not start
 * behind that. Settled: three answers in a row within SETTLED_ANSWER_MS, or SETTLE_LIMIT_MS passed.
 */
const SETTLED_ANSWER_MS = 200;
const SETTLE_LIMIT_MS = 30_000;

/** Waits until `url` answers quickly again; returns the milliseconds it took. */
async function settle(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  let quick = 0;
  while (quick < 3 && performance.now() - started < SETTLE_LIMIT_MS) {
    const sent = performance.now();
    const ok = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) }).then(
      async (res) => (await res.arrayBuffer(), res.ok),
      () => false,
    );
    quick = ok && performance.now() - sent < SETTLED_ANSWER_MS ? quick + 1 : 0;
    if (quick === 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return performance.now() - started;
}

interface Row {
  load: string;
  shedding: Shedding;
  outcomes: Outcome[];
  loadAverage: number[];
}

/** Sums of a row's runs, and the p50/p99 of all their 200s together. */
function total(row: Row) {
  const sum = (key: 'ok' | 'shed' | 'gaveUp' | 'decided') =>
    row.outcomes.reduce((all, o) => all + (o[key] ?? 0), 0);
  const served = row.outcomes.flatMap((o) => o.served).sort((a, b) => a - b);
  return {
    ok: sum('ok'),
    shed: sum('shed'),
    decided: sum('decided'),
    gaveUp: sum('gaveUp'),
    p50: at(served, 0.5),
    p99: at(served, 0.99),
  };
}

const range = (values: number[], digits = 0) => {
  const low = Math.min(...values).toFixed(digits);
  const high = Math.max(...values).toFixed(digits);
  return low === high ? low : `${low}–${high}`;
};

/** Per round, shedding on ÷ off of the 200s within the patience: the spread of the comparison. */
function roundRatios(on: Row, off: Row): number[] {
  return on.outcomes.map((o, i) => o.ok / Math.max(1, off.outcomes[i]?.ok ?? 0));
}

/** The detailed table: one line per load and setting. */
function printOutcomes(rows: Row[], capacity: number, runSeconds: number, runs: number): void {
  console.log(
    `\n${control ? 'A/A CONTROL (SHEDDING_CONTROL=1): "off" runs with shedding on too, so on ÷ off is the spread. ' : ''}` +
      `Starved host: the portal pinned to CPU ${STARVED_CPU} with ${BURNERS} CPU burners; capacity measured (closed load, both settings): ` +
      `${Math.round(capacity)} answers/s; ${runs} run(s) of ${runSeconds} s per line, on and off interleaved; ` +
      `patience ${PATIENCE_MS / 1000} s; ${settingsSaid}`,
  );
  const header = [
    'load',
    'shedding',
    'answered 200 in patience',
    'per run',
    'shed 503 in patience',
    'shed by the server',
    'gave up / failed',
    'p50 of 200s',
    'p99 of 200s',
    'on ÷ off per run',
    'load average',
  ];
  const cells = rows.map((row) => {
    const t = total(row);
    const other = rows.find((r) => r.load === row.load && r.shedding === 'off')!;
    return [
      row.load,
      row.shedding,
      String(t.ok),
      row.outcomes.map((o) => o.ok).join(' / '),
      String(t.shed),
      String(t.decided),
      String(t.gaveUp),
      `${Math.round(t.p50)} ms`,
      `${Math.round(t.p99)} ms`,
      row.shedding === 'on' ? range(roundRatios(row, other), 2) : '',
      range(row.loadAverage, 1),
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
  const hogs = burners(BURNERS);
  const instances = await startInstances(env).catch((error: unknown) => {
    for (const hog of hogs) hog.kill('SIGKILL');
    throw error;
  });
  // Runs alternate which setting goes first, so neither always follows the other.
  const orders: Shedding[][] = [
    ['off', 'on'],
    ['on', 'off'],
  ];
  const run = async (
    load: string,
    count: number,
    fn: (url: string, headers: Record<string, string>) => Promise<Outcome>,
  ) => {
    const row = (shedding: Shedding) => {
      let found = table.find((r) => r.load === load && r.shedding === shedding);
      if (!found) table.push((found = { load, shedding, outcomes: [], loadAverage: [] }));
      return found;
    };
    row('on');
    row('off');
    for (let i = 0; i < count; i++) {
      for (const shedding of orders[i % 2]!) {
        const { url, headers } = instances[shedding];
        await settle(`${url}/api/user`, headers);
        const before = instances[shedding].shedSoFar();
        const outcome = await fn(`${url}/api/user`, headers);
        // Its episode's end is logged at the sample after the load (and after settling at the latest).
        await settle(`${url}/api/user`, headers);
        await new Promise((resolve) => setTimeout(resolve, 500));
        row(shedding).outcomes.push({ ...outcome, decided: instances[shedding].shedSoFar() - before });
        row(shedding).loadAverage.push(loadavg()[0]!);
      }
    }
  };

  try {
    const closed = `closed, ${CLOSED_CONNECTIONS} connections`;
    const closedSeconds = Math.max(2, Math.round(runSeconds / 2));
    await run(closed, 1, (url, headers) => closedLoad(url, headers, closedSeconds));
    // The capacity: what the starved instance answers under closed load, both settings' mean (on a
    // busy host one run's figure moves with the host's load).
    const closedRows = table.filter((r) => r.load === closed);
    const capacity =
      closedRows.reduce((all, r) => all + total(r).ok, 0) / (closedRows.length * closedSeconds);
    for (const factor of OPEN_FACTORS) {
      const rate = Math.max(1, Math.round(capacity * factor));
      const kept = OPEN_KEPT > 0 ? `, ${OPEN_KEPT} kept connections` : '';
      await run(`open, ${factor} x capacity (${rate} req/s)${kept}`, runs, async (url, headers) => {
        const o = await openLoad(url, headers, {
          rate,
          seconds: runSeconds,
          patienceMs: PATIENCE_MS,
          sockets: OPEN_KEPT > 0 ? OPEN_KEPT : OPEN_SOCKETS,
          ...(OPEN_KEPT > 0 ? { warmPath: '/healthz' } : {}),
        });
        return { ok: o.served.length, shed: o.shed, gaveUp: o.gaveUp + o.failed, served: o.served };
      });
    }
    printOutcomes(table, capacity, runSeconds, runs);
    return comparisonRows(table, capacity, runs, runSeconds);
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
    await Promise.all(Object.values(instances).map((instance) => instance.stop()));
  }
}

/** The rows of the main table: per load, shedding on ÷ off, with each round's ratio as the spread. */
function comparisonRows(table: Row[], capacity: number, runs: number, runSeconds: number): BenchRow[] {
  const rows: BenchRow[] = [
    {
      figure: `starved host (1 CPU, ${BURNERS} burners on it${PROXY === 'nginx' ? ', behind nginx' : ''}): capacity, closed load`,
      value: capacity,
      unit: 'req/s',
      note: `${CLOSED_CONNECTIONS} connections, on and off; sets the open loads' rates`,
    },
  ];
  for (const load of new Set(table.map((r) => r.load))) {
    const onRow = table.find((r) => r.load === load && r.shedding === 'on')!;
    const offRow = table.find((r) => r.load === load && r.shedding === 'off')!;
    const on = total(onRow);
    const off = total(offRow);
    const factor = /open, ([\d.]+) x/.exec(load);
    if (!factor) continue; // closed load: its 300 callers are the capacity measurement
    const overloaded = Number(factor[1]) > 1;
    const describe = (t: ReturnType<typeof total>) =>
      `${t.ok} answered, ${t.shed} shed in time (${t.decided} by the server), ${t.gaveUp} gave up; p50 ${Math.round(t.p50)} ms, p99 ${Math.round(t.p99)} ms`;
    rows.push({
      figure: `${control ? 'A/A control, ' : ''}starved host${PROXY === 'nginx' ? ' behind nginx' : ''}, ${load}: answered in ${PATIENCE_MS / 1000} s, shedding on ÷ off`,
      value: off.ok > 0 ? on.ok / off.ok : null,
      unit: '×',
      // Overloaded, shedding must answer at least as many; otherwise it must cost next to nothing.
      // An A/A control has no goal: its ratio is the bench's own spread.
      goal: control ? undefined : { atLeast: overloaded ? 1 : 0.97 },
      note: `on: ${describe(on)}; off: ${describe(off)}; per run ${range(roundRatios(onRow, offRow), 2)} ×; ${runs} x ${runSeconds} s each`,
    });
    if (overloaded) {
      rows.push({
        figure: `${control ? 'A/A control, ' : ''}starved host${PROXY === 'nginx' ? ' behind nginx' : ''}, ${load}: p99 of the 200s, shedding on ÷ off`,
        value: off.p99 > 0 ? on.p99 / off.p99 : null,
        unit: '×',
        goal: control ? undefined : { atMost: 1 },
      });
    }
  }
  return rows;
}

// Run directly: npm run bench:shedding-starved
if (directRun) {
  const database = await createBenchDatabase();
  if (!database) throw new Error('needs PostgreSQL');
  try {
    printTable(await benchStarvedShedding(database.url));
  } finally {
    await database.drop();
  }
}
