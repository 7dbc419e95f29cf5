// The real server as a child process (dist/server.js), for tests where the process itself matters:
// several instances on one database, a crash on an unhandled event, start-up before the database.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/** Set by the test run's global setup once it has built dist/ (SERVER_BUILT_VARIABLE). */
export const SERVER_BUILT_VARIABLE = 'PRA_TEST_SERVER_BUILT';

/**
 * Bundles src/ into dist/ so the processes run the code under test: once per test run. The global
 * setup builds before any worker starts; a file that builds again would empty dist/ (build.mjs
 * starts from an empty folder) under the servers that files in other workers are starting, which
 * then fail to find dist/server.js or a chunk.
 */
export function buildServer(): void {
  if (process.env[SERVER_BUILT_VARIABLE] === '1') return;
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'pipe' });
}

export { freePort } from './free-port';

export interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
  exit: Promise<number | null>;
}

export function startServer(name: string, port: number, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      // A busy test machine lags: no shedding unless a test asks for it.
      SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, url: `http://127.0.0.1:${port}`, child, output, exit };
}

export async function waitUntilUp(instance: Instance, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null) break;
    try {
      const res = await fetch(`${instance.url}/api/service_check`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${instance.name} did not come up:\n${instance.output.join('')}`);
}

/** Stops an instance with SIGTERM; its exit code. */
export async function stopServer(instance: Instance | undefined): Promise<number | null> {
  if (!instance) return null;
  if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill('SIGTERM');
  return instance.exit;
}

/** Runs one statement on a fresh connection to `url`. */
export async function runSql(url: string, query: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(query, values);
  } finally {
    await client.end();
  }
}

/** A new empty database beside TEST_DATABASE_URL's; `drop` removes it. */
export async function scratchDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `pra_test_${randomBytes(6).toString('hex')}`;
  await runSql(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => void (await runSql(adminUrl, `drop database if exists ${name} with (force)`)),
  };
}
