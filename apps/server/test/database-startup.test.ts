// The portal started before its PostgreSQL (an orchestrator starting both at once) waits for it,
// and gives up with a clear message only after DATABASE_STARTUP_WAIT_SECONDS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canRunOwnPostgres, createOwnPostgres, type OwnPostgres } from './support/own-postgres';
import {
  buildServer,
  freePort,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

const PASSWORD = 'not-for-the-logs-4711';

describe.skipIf(!canRunOwnPostgres)('starting while PostgreSQL is down', () => {
  let dataDir: string;
  let cluster: OwnPostgres | undefined;
  let server: Instance | undefined;
  /** Every instance started, so that a failed test leaves none running. */
  const started: Instance[] = [];

  beforeAll(() => {
    buildServer();
    dataDir = mkdtempSync(join(tmpdir(), 'pra-db-startup-'));
  });
  afterAll(async () => {
    await Promise.all(started.map(stopServer));
    try {
      cluster?.stop();
    } catch {
      // not running
    }
    cluster?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function env(url: string, waitSeconds: string): Record<string, string> {
    return {
      PRA_MODE: 'standalone',
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      DATABASE_STARTUP_WAIT_SECONDS: waitSeconds,
    };
  }

  it('waits for a database that starts after it, logging each attempt without the password', async () => {
    const port = await freePort();
    cluster = createOwnPostgres(port);
    server = startServer('portal', await freePort(), env(cluster.url('postgres', PASSWORD), '60'));
    started.push(server);
    const attemptsSoFar = () => server?.output.join('').split('database not reachable yet').length ?? 0;
    for (let waited = 0; attemptsSoFar() < 3 && waited < 20_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(server.child.exitCode, server.output.join('')).toBeNull();
    // Waiting is not dead: the liveness probe says alive (an orchestrator must not restart it),
    // readiness and every call say 503, so no balancer sends it users yet.
    const liveness = await fetch(`${server.url}/healthz`);
    expect(liveness.status).toBe(200);
    expect(await liveness.text()).toBe('ok\n');
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    const call = await fetch(`${server.url}/api/user`);
    expect(call.status).toBe(503);
    expect(call.headers.get('retry-after')).toBe('5');
    expect(await call.json()).toEqual({
      errors: ['The service is temporarily unavailable. Please try again shortly.'],
    });
    cluster.start();
    await waitUntilUp(server, 30_000);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    const output = server.output.join('');
    const attempts = output.split('\n').filter((line) => line.includes('database not reachable yet'));
    expect(attempts.length, output).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(attempts[0] ?? '{}')).toMatchObject({
      database: `127.0.0.1:${port}/postgres`,
      attempt: 1,
    });
    expect(output).toContain('database reachable; schema up to date');
    expect(output).not.toContain(PASSWORD);
    expect(await stopServer(server)).toBe(0);
  }, 60_000);

  it('gives up with exit 1 and a clear message after the configured time', async () => {
    const port = await freePort();
    const startedAt = Date.now();
    server = startServer(
      'portal',
      await freePort(),
      env(`postgres://postgres:${PASSWORD}@127.0.0.1:${port}/portal`, '2'),
    );
    started.push(server);
    const code = await server.exit;
    const elapsed = Date.now() - startedAt;
    const output = server.output.join('');
    expect(code).toBe(1);
    // At least the configured 2 s; and it gave up rather than waited on (the default is 60 s, and
    // the message below names the 2 s). The bound leaves room for the process's own start: from
    // spawn to exit took 11 s on Node 22 beside the journeys on a loaded 2-core machine.
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(30_000);
    expect(output).toContain(
      `PRA Portal failed to start: PostgreSQL at 127.0.0.1:${port}/portal did not answer within 2 s (DATABASE_STARTUP_WAIT_SECONDS): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(output).not.toContain(PASSWORD);
  }, 60_000);
});
