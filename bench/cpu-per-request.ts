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
import { createBenchDatabase, createPortal, pause, production, signInWhenSettled } from './portals';
import { measureLoad } from './load';
import { startNode } from './processes';
import { median } from './table';

const servers = (process.env.BENCH_SERVERS ?? 'apps/server/dist/server.js').split(',');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const path = process.env.BENCH_PATH ?? '/api/user';

const database = await createBenchDatabase();
if (!database) process.exit(1);
const results = new Map<string, { us: number[]; rps: number[] }>(
  servers.map((s) => [s, { us: [], rps: [] }]),
);
try {
  // The first build creates the database and the demo data; every measured start restarts on it.
  const { env } = await createPortal(servers[0]!, production(database.url));
  for (let round = 1; round <= rounds; round++) {
    for (const script of servers) {
      const server = await startNode(script, env, '/readyz');
      try {
        await pause(500);
        const headers = await signInWhenSettled(server.url);
        const load = await measureLoad(server.url + path, headers, {
          cpuMs: server.cpuMs,
          warmupSeconds: 3,
          durationSeconds: seconds,
        });
        const us = load.cpuUsPerRequest!;
        const result = results.get(script)!;
        result.us.push(us);
        result.rps.push(load.requestsPerSecond);
        console.log(
          `round ${round} ${script}: ${us.toFixed(1)} us/request, ${load.requestsPerSecond.toFixed(0)} req/s` +
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
