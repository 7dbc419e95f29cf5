// npm run bench:soak [-- minutes idleMinutes]   (10 and 2 by default)
// The portal in production mode on PostgreSQL under a mixed load of reads and writes for
// `minutes` (50 connections: the signed-in GET /api/user, the system message, and anonymous
// GET /api/csrf, which writes a session and a rate-limit row each time), then idle for
// `idleMinutes`. Prints resident memory and the V8 heap before, every minute, at the end of the
// load and after the idle time. SOAK_NODE_ENV (e.g. "MALLOC_ARENA_MAX=2") adds settings to the
// portal's environment, to compare allocators' behaviour.
import autocannon from 'autocannon';
import { createBenchDatabase, createPortal, pause, production, signInWhenSettled } from './portals';
import { freePort, startNode } from './processes';

const [minutes = 10, idleMinutes = 2] = process.argv.slice(2).map(Number);
const serverScript = new URL('../apps/server/dist/server.js', import.meta.url).pathname;
const extraEnv = Object.fromEntries(
  (process.env.SOAK_NODE_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]),
);

interface Sample {
  at: string;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

const database = await createBenchDatabase();
if (!database) throw new Error('needs PostgreSQL');
try {
  const { env } = await createPortal(serverScript, production(database.url));
  const metricsPort = await freePort();
  const server = await startNode(
    serverScript,
    (port) => ({ ...env(port), LOG_LEVEL: 'warn', METRICS_PORT: String(metricsPort), ...extraEnv }),
    '/readyz',
  );
  const samples: Sample[] = [];
  const sample = async (at: string) => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const metric = (name: string) =>
      Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
    const s = {
      at,
      rssMb: Math.round(server.rssMb()),
      heapUsedMb: Math.round(metric('nodejs_heap_size_used_bytes')),
      heapTotalMb: Math.round(metric('nodejs_heap_size_total_bytes')),
      externalMb: Math.round(metric('nodejs_external_memory_bytes')),
    };
    samples.push(s);
    console.error(JSON.stringify(s));
  };
  try {
    const headers = await signInWhenSettled(server.url);
    await pause(5_000);
    await sample('before, idle');
    let requests = 0;
    const sampler = setInterval(() => void sample(`under load, ${requests} requests`), 60_000);
    await new Promise<void>((resolve, reject) => {
      const load = autocannon(
        {
          url: server.url,
          connections: 50,
          duration: minutes * 60,
          requests: [
            { method: 'GET', path: '/api/user', headers },
            { method: 'GET', path: '/api/system/message', headers },
            { method: 'GET', path: '/api/csrf', headers: { 'x-pra-api-call': 'true' } },
          ],
        },
        (error: Error | null) => (error ? reject(error) : resolve()),
      );
      load.on('response', () => (requests += 1));
    });
    clearInterval(sampler);
    await sample(`end of the load (${requests} requests)`);
    await pause(idleMinutes * 60_000);
    await sample(`${idleMinutes} min idle after`);
  } finally {
    await server.stop();
  }
  console.log(
    `\nSoak: ${minutes} min of mixed load, 50 connections${process.env.SOAK_NODE_ENV ? `, ${process.env.SOAK_NODE_ENV}` : ''}`,
  );
  console.log('| when | RSS | V8 heap used | V8 heap total | external |');
  console.log('|---|---|---|---|---|');
  for (const s of samples) {
    console.log(
      `| ${s.at} | ${s.rssMb} MB | ${s.heapUsedMb} MB | ${s.heapTotalMb} MB | ${s.externalMb} MB |`,
    );
  }
} finally {
  await database.drop();
}
