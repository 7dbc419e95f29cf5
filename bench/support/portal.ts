// Starts the built portal (`node apps/server/dist/server.js`, standalone mode) on a free port and a
// fresh data folder, for the browser benchmarks. Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../processes';

/** The demo accounts' password in the portals started here. */
export const BENCH_DEMO_PASSWORD = 'Bench-Demo-Portal-2025!';

export interface Portal {
  /** e.g. http://localhost:40123 */
  url: string;
  stop(): Promise<void>;
}

async function waitForServer(url: string, exited: () => boolean): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (exited()) throw new Error(`the portal exited before answering ${url}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server at ${url} did not start`);
}

export async function startPortal(extraEnv: Record<string, string> = {}): Promise<Portal> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'pra-bench-'));
  const server = spawn('node', ['apps/server/dist/server.js'], {
    env: {
      ...process.env,
      PRA_MODE: 'standalone',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DEMO_PASSWORD: BENCH_DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  let exited = false;
  const done = new Promise<void>((resolve) => server.once('exit', () => ((exited = true), resolve())));
  const stop = async () => {
    if (!exited) server.kill('SIGTERM');
    await done;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(`${url}/api/service_check`, () => exited);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return { url, stop };
}
