// The built server (dist/server.js) run as its own process, as in production.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

export const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/** Bundles src/ into dist/ as `npm run build` does. */
export function buildServer(): void {
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'pipe' });
}

/** A port nothing listens on yet. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

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
