// A PostgreSQL backend frozen outright (SIGSTOP: it cannot even cancel on its statement timeout)
// must still cost a request only a prompt 503: the client gives up and drops that connection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canRunOwnPostgres, createOwnPostgres, type OwnPostgres } from './support/own-postgres';
import {
  buildServer,
  freePort,
  runSql,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

describe.skipIf(!canRunOwnPostgres || process.getuid?.() !== 0)('a frozen PostgreSQL backend', () => {
  let dataDir: string;
  let cluster: OwnPostgres;
  let server: Instance;
  let frozen: number[] = [];

  beforeAll(async () => {
    buildServer();
    dataDir = mkdtempSync(join(tmpdir(), 'pra-db-frozen-'));
    cluster = createOwnPostgres(await freePort());
    cluster.start();
    server = startServer('portal', await freePort(), {
      PRA_MODE: 'standalone',
      DATABASE_URL: cluster.url(),
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_POOL_SIZE: '1',
    });
    await waitUntilUp(server, 40_000);
  }, 90_000);

  afterAll(async () => {
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    const code = await stopServer(server);
    cluster?.stop();
    cluster?.remove();
    rmSync(dataDir, { recursive: true, force: true });
    expect(code, server?.output.join('')).toBe(0);
  }, 30_000);

  it('answers 503 within about 2.5 s, and then serves from a fresh connection', async () => {
    const csrf = () => fetch(`${server.url}/api/csrf`, { headers: { 'x-pra-api-call': 'true' } });
    expect((await csrf()).status).toBe(200);
    const { rows } = await runSql(
      cluster.url(),
      `select pid from pg_stat_activity where backend_type = 'client backend' and application_name = 'pra-portal' and pid <> pg_backend_pid()`,
    );
    frozen = rows.map((row: { pid: number }) => row.pid);
    expect(frozen).toHaveLength(1);
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');

    const started = Date.now();
    const res = await csrf();
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(4_000);
    // The frozen connection was dropped: the next request opens a new one and is served.
    expect((await csrf()).status).toBe(200);
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    frozen = [];
  }, 30_000);
});
