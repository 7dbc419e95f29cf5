// Only the throughput rows of `npm run bench`, for working on the signed-in hot path:
// the anchor, the PostgreSQL portal (production mode) and the anchor again, in one table.
// BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the portal process there (open it in Chrome's
// DevTools or summarise it with bench/support/cpu-profile-top.ts). BENCH_QUICK=1 shortens the runs.
//   npm run build -w @pra/server && node --import tsx bench/throughput.ts
import { loadDescription, quick } from './load';
import { anchor, createBenchDatabase, portal, production, throughputRows } from './portals';
import { printTable, type BenchRow } from './table';

console.log(`bench (throughput only): ${loadDescription}${quick ? ' (BENCH_QUICK: indicative only)' : ''}`);
const database = await createBenchDatabase();
if (!database) process.exit(1);
const profileDir = process.env.BENCH_CPU_PROF;
try {
  const first = await anchor();
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const pgFigures = await portal('PostgreSQL, production', production(database.url), true, nodeArgs);
  const last = await anchor();
  const anchorRps = (first.requestsPerSecond + last.requestsPerSecond) / 2;
  const rows: BenchRow[] = [
    {
      figure: 'bare fastify hello-world (anchor)',
      value: anchorRps,
      unit: 'req/s',
      note: `${first.requestsPerSecond.toFixed(0)} (first), ${last.requestsPerSecond.toFixed(0)} (last); p99 ${last.p99Ms} ms`,
    },
    ...throughputRows(pgFigures, anchorRps, true),
  ];
  console.log('');
  printTable(rows);
} finally {
  await database.drop();
}
