import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { portalEnv, portalProcess } from '../playwright.config';

/** A port nothing listens on (free a moment ago): a dependency that does not answer. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts a portal of a journey's own (the journeys' build, `portalEnv` with `settings`) on `port`,
 * and waits until `upWhen` answers 2xx there: the app's service check for a portal that serves,
 * the liveness probe for one that never gets as far. Its errors go to the journey's output.
 */
export async function startOwnPortal(
  port: number,
  name: string,
  settings: Record<string, string>,
  { upWhen = '/api/service_check', withinMs = 90_000 } = {},
): Promise<ChildProcess> {
  const portal = spawn(process.execPath, [portalProcess.script], {
    cwd: portalProcess.cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH ?? '', ...portalEnv(port, name, settings) },
  });
  const end = Date.now() + withinMs;
  for (;;) {
    const up = await fetch(`http://localhost:${port}${upWhen}`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return portal;
    if (Date.now() > end || portal.exitCode !== null) {
      portal.kill('SIGTERM');
      throw new Error(`the ${name} portal did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
