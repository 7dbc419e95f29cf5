// npm run bench:ready [-- restarts]   (10 restarts by default)
// Ready means ready (issue 31): the portal in production mode on PostgreSQL, with the default load
// shedding, is restarted again and again; each time, the moment its readiness probe (/readyz,
// polled every 50 ms as a load balancer's active check would) answers 200, 50 connections send it
// requests for 5 s, as a balancer routes users to an instance it has just seen ready. Counts the
// requests answered 503 (shed, or not ready after all) in those 5 s: the goal is none, over every
// restart.
import autocannon from 'autocannon';
import { createBenchDatabase, createPortal, production } from './portals';
import { startNode } from './processes';
import { printTable, type BenchRow } from './table';

const serverScript = new URL('../apps/server/dist/server.js', import.meta.url).pathname;
const LOAD_SECONDS = 5;
const CONNECTIONS = 50;

/** A cheap call every instance answers without a session: the traffic of the first seconds. */
const PATH = '/api/saml/is-authenticated';

export async function benchReadyAfterStart(databaseUrl: string, restarts = 10): Promise<BenchRow[]> {
  const { env } = await createPortal(serverScript, production(databaseUrl));
  const shed: number[] = [];
  let answered = 0;
  let failed = 0;
  for (let i = 0; i < restarts; i++) {
    const server = await startNode(serverScript, (port) => ({ ...env(port), LOG_LEVEL: 'warn' }), '/readyz');
    try {
      const result = await autocannon({
        url: `${server.url}${PATH}`,
        connections: CONNECTIONS,
        duration: LOAD_SECONDS,
      });
      const stats = result.statusCodeStats as Record<string, { count: number } | undefined> | undefined;
      shed.push(stats?.['503']?.count ?? 0);
      answered += result.requests.total;
      failed += result.errors + result.non2xx - (stats?.['503']?.count ?? 0);
    } finally {
      await server.stop();
    }
  }
  const total = shed.reduce((all, count) => all + count, 0);
  return [
    {
      figure: `requests answered 503 in the ${LOAD_SECONDS} s after readiness says ready (${restarts} restarts)`,
      value: total,
      unit: 'requests',
      goal: { atMost: 0 },
      note: `per restart: ${shed.join(', ')}; ${answered} requests in all (${CONNECTIONS} connections, ${PATH}), ${failed} other failures`,
    },
  ];
}

// Run directly: npm run bench:ready
if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await createBenchDatabase();
  if (!database) throw new Error('needs PostgreSQL');
  try {
    printTable(await benchReadyAfterStart(database.url, Number(process.argv[2] ?? 10)));
  } finally {
    await database.drop();
  }
}
