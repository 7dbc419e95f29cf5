// npm run bench: the hot paths against their goals (issue 9), in one table. Throughput is
// measured from outside with autocannon against the built server in a child process, beside a
// bare fastify hello-world measured the same way in the same run; sign-in is the sum of the
// server's own time over every step; memory is the server process's RSS; page weight and
// Lighthouse come from Chromium (first-page.ts), then the outbox drain rate and page-load timings.
// BENCH_QUICK=1 shortens the load runs and audits once for development. Needs `npm run build`
// first (npm run bench does it).
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { hashPassword, verifyPassword } from '../apps/server/src/identity/passwords';
import { benchAudit } from './audit';
import { benchOutboxDrain } from './outbox-drain';
import { writeBenchIdpMetadata, signInOverHttp } from './http-sign-in';
import { loadDescription, measureLoad, quick, type LoadResult } from './load';
import { benchFirstPage } from './first-page';
import { benchPageLoad } from './page-load';
import { startNode, type Running } from './processes';
import { benchSignIn } from './sign-in';
import { startPortal } from './support/portal';
import { median, printTable, type BenchRow } from './table';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverScript = join(root, 'apps/server/dist/server.js');
const fixtures = join(root, 'apps/server/test/fixtures');
const work = mkdtempSync(join(tmpdir(), 'pra-bench-'));
const idpMetadata = writeBenchIdpMetadata(work);
const rows: BenchRow[] = [];

/** The local PostgreSQL (or BENCH_DATABASE_URL's): a database of the bench's own, or null. */
async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `pra_bench_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  try {
    await run(`create database ${name}`);
  } catch (error) {
    console.error(`PostgreSQL at ${admin} unavailable (${String(error)}); its rows are not run`);
    return null;
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/** The settings both portals share: demo data (jdoe signs in) and the bench's IdP. */
const common = (port: number) => ({
  DATA_DIR: mkdirSync(join(work, `data-${port}`), { recursive: true }) ?? join(work, `data-${port}`),
  PUBLIC_URL: `http://localhost:${port}`,
  IDP: 'external',
  IDP_METADATA: idpMetadata,
  DEMO_DATA: 'true',
  DEMO_PASSWORD: 'Bench-Demo-Password-1',
});

function production(databaseUrl: string) {
  return (port: number) => ({
    ...common(port),
    PRA_MODE: 'production',
    DATABASE_URL: databaseUrl,
    SMTP_URL: 'smtp://127.0.0.1:1',
    SESSION_SECRET: 'bench-session-secret-bench-session-secret',
    DATA_ENCRYPTION_KEY: 'bench-encryption-key-bench-encryption-key',
    SAML_SP_KEY_FILE: join(fixtures, 'sp.key'),
    SAML_SP_CERT_FILE: join(fixtures, 'sp.crt'),
  });
}

const standalone = (port: number) => ({ ...common(port), PRA_MODE: 'standalone' });

async function anchor(): Promise<LoadResult> {
  const server = await startNode(join(root, 'bench/hello-fastify.mjs'), () => ({}));
  try {
    return await measureLoad(`${server.url}/`);
  } finally {
    await server.stop();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface PortalFigures {
  label: string;
  start: number;
  idleRss: number;
  user: LoadResult;
  anonymous: LoadResult | null;
}

/** Starts the built server, signs in, and measures memory and throughput. */
async function portal(
  label: string,
  env: (port: number) => Record<string, string>,
  withAnonymous: boolean,
): Promise<PortalFigures> {
  const server: Running = await startNode(serverScript, env, '/api/service_check');
  try {
    const headers = await signInOverHttp(server.url, 'jdoe');
    await pause(2000);
    const idleRss = server.rssMb();
    const user = await measureLoad(`${server.url}/api/user`, headers, () => server.rssMb());
    const anonymous = withAnonymous
      ? await measureLoad(`${server.url}/api/saml/is-authenticated`, { 'x-pra-api-call': 'true' })
      : null;
    return { label, start: server.startMs, idleRss, user, anonymous };
  } finally {
    await server.stop();
  }
}

function throughputRows(p: PortalFigures, anchorRps: number, goals: boolean): BenchRow[] {
  const loadNote = (r: LoadResult) =>
    `p99 ${r.p99Ms} ms${r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`;
  const result: BenchRow[] = [
    {
      figure: `GET /api/user signed in, ${p.label}`,
      value: p.user.requestsPerSecond,
      unit: 'req/s',
      ratio: { value: p.user.requestsPerSecond / anchorRps, ...(goals ? { atLeast: 0.25 } : {}) },
      note: loadNote(p.user),
    },
    {
      figure: `  p99 latency, ${p.label}`,
      value: p.user.p99Ms,
      unit: 'ms',
      ...(goals ? { goal: { atMost: 25 } } : {}),
    },
  ];
  if (p.anonymous) {
    result.push({
      figure: `GET /api/saml/is-authenticated anonymous, ${p.label}`,
      value: p.anonymous.requestsPerSecond,
      unit: 'req/s',
      ratio: { value: p.anonymous.requestsPerSecond / anchorRps },
      note: loadNote(p.anonymous),
    });
  }
  return result;
}

function memoryRows(p: PortalFigures, goals: boolean): BenchRow[] {
  return [
    {
      figure: `RSS idle, ${p.label}`,
      value: p.idleRss,
      unit: 'MB',
      ...(goals ? { goal: { atMost: 150 } } : {}),
      note: 'after start and one sign-in',
    },
    {
      figure: `RSS peak under load, ${p.label}`,
      value: p.user.peakRssMb,
      unit: 'MB',
      ...(goals ? { goal: { atMost: 300 } } : {}),
      note: 'during the GET /api/user run',
    },
    { figure: `start until first answer, ${p.label}`, value: p.start, unit: 'ms' },
  ];
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

console.log(`bench: ${loadDescription}${quick ? ' (BENCH_QUICK: indicative only)' : ''}`);
const database = await createBenchDatabase();
try {
  const first = await anchor();
  const figures: PortalFigures[] = [];
  if (database) figures.push(await portal('PostgreSQL, production', production(database.url), true));
  figures.push(await portal('PGlite, standalone', standalone, false));
  const last = await anchor();
  const anchorRps = (first.requestsPerSecond + last.requestsPerSecond) / 2;
  rows.push({
    figure: 'bare fastify hello-world (anchor)',
    value: anchorRps,
    unit: 'req/s',
    note: `mean of ${first.requestsPerSecond.toFixed(0)} (first) and ${last.requestsPerSecond.toFixed(0)} (last); p99 ${last.p99Ms} ms`,
  });
  if (!database) {
    rows.push({
      figure: 'PostgreSQL figures',
      value: null,
      unit: '',
      goal: {},
      note: 'no PostgreSQL answered',
    });
  }
  for (const p of figures) rows.push(...throughputRows(p, anchorRps, p.label.startsWith('PostgreSQL')));
  for (const p of figures) rows.push(...memoryRows(p, p.label.startsWith('PostgreSQL')));

  const signInRuns = quick ? 5 : 20;
  rows.push(...(await benchSignIn('pglite', signInRuns)));
  if (database) {
    process.env.TEST_DATABASE_URL = database.url;
    rows.push(...(await benchSignIn('postgres', signInRuns)));
  }
  const hash = await hashPassword('Bench-Password-42');
  rows.push({
    figure: 'argon2id verify (m=19456, t=2)',
    value: await timeIt(10, () => verifyPassword(hash, 'Bench-Password-42')),
    unit: 'ms',
    note: 'part of the password step; cost set by the architecture',
  });

  // Before the PostgreSQL database goes: the drain runs on it when there is one.
  rows.push(...(await benchOutboxDrain()));
  // The audit trail at scale (on PostgreSQL when there is one; quick runs use fewer events).
  if (quick) process.env.AUDIT_BENCH_EVENTS ??= '100000';
  for (const row of await benchAudit()) {
    const atMost = /^≤ (\d+) ms$/.exec(row.goal);
    rows.push({
      figure: row.name,
      value: row.value,
      unit: row.unit,
      goal: atMost ? { atMost: Number(atMost[1]) } : { text: row.goal },
    });
  }

  const browserPortal = await startPortal();
  try {
    rows.push(...(await benchFirstPage(browserPortal.url, quick ? 1 : 3)));
    rows.push(...(await benchPageLoad(browserPortal.url)));
  } finally {
    await browserPortal.stop();
  }
} finally {
  await database?.drop();
}

console.log('');
printTable(rows);
