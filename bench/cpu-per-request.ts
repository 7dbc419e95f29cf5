// The server's own CPU time per signed-in GET /api/user (PostgreSQL, production mode), for
// comparing builds on a noisy machine: each round starts every build in turn on one database,
// signs in, warms up, then reads the process's user + system time (/proc/<pid>/stat) around a
// short 50-connection load. Throughput swings with whatever else the host runs; the CPU spent per
// request swings less, and interleaved rounds share the same swings. Prints each round, then
// the minimum and median per build.
//   npm run build -w @pra/server && mkdir -p apps/server/bench-builds &&
//     cp -r apps/server/dist apps/server/bench-builds/before        # then change, build again
//   BENCH_SERVERS=apps/server/bench-builds/before/server.js,apps/server/dist/server.js \
//     BENCH_ROUNDS=6 node --import tsx bench/cpu-per-request.ts
// A copy of a build must sit inside apps/server (its externals resolve from node_modules there);
// apps/server/bench-builds is ignored by git.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { signInOverHttp } from './http-sign-in';
import { createBenchDatabase, pause, production } from './portals';
import { startNode } from './processes';
import { median } from './table';

const servers = (process.env.BENCH_SERVERS ?? 'apps/server/dist/server.js').split(',');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const path = process.env.BENCH_PATH ?? '/api/user';

/** User + system CPU time of a process so far, in ms (/proc counts in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const database = await createBenchDatabase();
if (!database) process.exit(1);
const dataDir = mkdtempSync(join(tmpdir(), 'pra-cpu-'));
const env = (port: number) => ({ ...production(database.url)(port), DATA_DIR: dataDir });
const results = new Map<string, { us: number[]; rps: number[] }>(
  servers.map((s) => [s, { us: [], rps: [] }]),
);
try {
  // The first start creates the database and the demo data; the measured ones restart on it.
  const creating = await startNode(servers[0]!, env, '/api/service_check');
  await pause(1500);
  await creating.stop();
  for (let round = 1; round <= rounds; round++) {
    for (const script of servers) {
      const server = await startNode(script, env, '/api/service_check');
      try {
        await pause(500);
        const headers = await signInOverHttp(server.url, 'jdoe');
        await autocannon({ url: server.url + path, headers, connections: 50, duration: 3 });
        const before = cpuMs(server.pid);
        const load = await autocannon({
          url: server.url + path,
          headers,
          connections: 50,
          duration: seconds,
        });
        const us = ((cpuMs(server.pid) - before) * 1000) / load.requests.total;
        const result = results.get(script)!;
        result.us.push(us);
        result.rps.push(load.requests.average);
        console.log(
          `round ${round} ${script}: ${us.toFixed(1)} us/request, ${load.requests.average.toFixed(0)} req/s` +
            (load.non2xx ? `, ${load.non2xx} non-2xx` : ''),
        );
      } finally {
        await server.stop();
      }
    }
  }
  console.log('');
  for (const [script, { us, rps }] of results) {
    console.log(
      `${script}: CPU per request min ${Math.min(...us).toFixed(1)} us, median ${median(us).toFixed(1)} us; ` +
        `req/s median ${median(rps).toFixed(0)}, max ${Math.max(...rps).toFixed(0)}`,
    );
  }
} finally {
  await database.drop();
}
