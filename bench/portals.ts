// The portals the bench measures, started as built servers in child processes: PostgreSQL in
// production mode (a database of the bench's own) and PGlite standalone, each signed in over HTTP,
// beside the bare-fastify anchor; and their throughput rows. Shared by run.ts and throughput.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { writeBenchIdpMetadata, signInOverHttp } from './http-sign-in';
import { measureLoad, type LoadResult } from './load';
import { startNode, type Running } from './processes';
import type { BenchRow } from './table';

const root = fileURLToPath(new URL('..', import.meta.url));
// BENCH_SERVER: another built server.js (e.g. an older commit's build) to measure instead.
const serverScript = process.env.BENCH_SERVER ?? join(root, 'apps/server/dist/server.js');
const fixtures = join(root, 'apps/server/test/fixtures');
const work = mkdtempSync(join(tmpdir(), 'pra-bench-'));
// The portals' data folders (an embedded database is tens of MB) go with the bench.
process.once('exit', () => rmSync(work, { recursive: true, force: true }));
const idpMetadata = writeBenchIdpMetadata(work);

/** The local PostgreSQL (or BENCH_DATABASE_URL's): a database of the bench's own, or null. */
export async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
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
  PUBLIC_URL: `http://localhost:${port}`,
  IDP: 'external',
  IDP_METADATA: idpMetadata,
  DEMO_DATA: 'true',
  DEMO_PASSWORD: 'Bench-Demo-Password-1',
});

export function production(databaseUrl: string) {
  return (port: number) => ({
    ...common(port),
    PRA_MODE: 'production',
    // As the shipped systemd unit and image start it (docs/OPERATIONS.md, "Memory"): their
    // command line's flag, here through NODE_OPTIONS.
    MALLOC_ARENA_MAX: '2',
    NODE_OPTIONS: '--max-semi-space-size=8',
    DATABASE_URL: databaseUrl,
    SMTP_URL: 'smtp://127.0.0.1:1',
    SESSION_SECRET: 'bench-session-secret-bench-session-secret',
    DATA_ENCRYPTION_KEY: 'bench-encryption-key-bench-encryption-key',
    SAML_SP_KEY_FILE: join(fixtures, 'sp.key'),
    SAML_SP_CERT_FILE: join(fixtures, 'sp.crt'),
  });
}

export const standalone = (port: number) => ({ ...common(port), PRA_MODE: 'standalone' });

export async function anchor(): Promise<LoadResult> {
  const server = await startNode(join(root, 'bench/hello-fastify.mjs'), () => ({}));
  try {
    return await measureLoad(`${server.url}/`);
  } finally {
    await server.stop();
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface FirstStart {
  /** Milliseconds until it answered. */
  start: number;
  /** Its resident memory once settled, 5 s after it answered, in MB. */
  rss: number;
  /** The most resident memory seen in those 5 s (sampled every 250 ms), in MB. */
  peakRss: number;
}

/** Resident memory sampled every 250 ms for `ms`: the last sample and the largest. */
async function settledRss(
  running: { rssMb(): number },
  ms: number,
): Promise<{ rss: number; peakRss: number }> {
  let peakRss = running.rssMb();
  for (let waited = 0; waited < ms; waited += 250) {
    await pause(250);
    peakRss = Math.max(peakRss, running.rssMb());
  }
  return { rss: running.rssMb(), peakRss };
}

/**
 * A data folder of its own for a built server, and the first start on it, which creates the
 * portal's database (and seeds the demo data); that start is stopped, and its time and memory
 * returned. The process that created the database carries what the creation left (its heap and
 * JIT state after the migrations and the demo data's password hashing): measured that way, the
 * same build showed about 10 % less throughput and up to 40 MB more peak memory, a state a portal
 * is in only until its first restart. So measured starts come after this one, on the same folder.
 */
export async function createPortal(
  script: string,
  portEnv: (port: number) => Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ env: (port: number) => Record<string, string>; firstStart: FirstStart }> {
  // Every start uses this one data folder (the port of each start differs).
  const dataDir = mkdtempSync(join(work, 'data-'));
  const env = (port: number) => ({ ...portEnv(port), DATA_DIR: dataDir });
  const creating = await startNode(script, env, '/readyz', nodeArgs);
  // The creation's memory is still coming down when it first answers (one sample 2 s after it
  // caught 762 MB where it settles at ~385 MB): the settled figure, and the peak on the way.
  const firstStart = { start: creating.startMs, ...(await settledRss(creating, 5000)) };
  await creating.stop();
  return { env, firstStart };
}

export interface PortalFigures {
  label: string;
  /** The first start, which creates the portal's database (and seeds the demo data). */
  firstStart: FirstStart;
  start: number;
  idleRss: number;
  user: LoadResult;
  anonymous: LoadResult | null;
}

/**
 * Creates a portal (`createPortal`, whose first start is reported on its own), starts it again
 * as a production server usually runs, on a database that exists, signs in, and measures memory
 * and throughput.
 */
export async function portal(
  label: string,
  portEnv: (port: number) => Record<string, string>,
  withAnonymous: boolean,
  nodeArgs: string[] = [],
): Promise<PortalFigures> {
  const { env, firstStart } = await createPortal(serverScript, portEnv, nodeArgs);
  const server: Running = await startNode(serverScript, env, '/readyz', nodeArgs);
  try {
    const headers = await signInWhenSettled(server.url);
    await pause(2000);
    const idleRss = server.rssMb();
    const user = await measureLoad(`${server.url}/api/user`, headers, { rss: () => server.rssMb() });
    const anonymous = withAnonymous
      ? await measureLoad(`${server.url}/api/saml/is-authenticated`, { 'x-pra-api-call': 'true' })
      : null;
    return { label, firstStart, start: server.startMs, idleRss, user, anonymous };
  } finally {
    await server.stop();
  }
}

/** Signs jdoe in over HTTP; right after a start the event loop can still lag past the shedding bound (503): tries again. */
export async function signInWhenSettled(url: string): Promise<Record<string, string>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await signInOverHttp(url, 'jdoe');
    } catch (error) {
      if (attempt === 3) throw error;
      await pause(1000);
    }
  }
}

export function throughputRows(p: PortalFigures, anchorRps: number, goals: boolean): BenchRow[] {
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
