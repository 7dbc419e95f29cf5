// SIGTERM while an audit export (PostgreSQL: in a worker thread) is being downloaded: an export
// takes minutes, longer than the shutdown's grace, so the stop ends it (the client sees an
// unfinished transfer), logs why, and the process still exits 0 within the grace. Before, the
// stop waited for the download and was killed by its own deadline ("shutdown took too long").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminApi } from '@pra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToInstance } from './support/instance-sign-in';
import {
  buildServer,
  freePort,
  runSql,
  scratchDatabase,
  startServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

const GRACE_SECONDS = 6;

describe.skipIf(!process.env.TEST_DATABASE_URL)('an audit export when the process is stopped', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let dataDir: string;
  let instance: Instance | undefined;

  beforeAll(async () => {
    buildServer();
    database = await scratchDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'pra-export-shutdown-'));
  }, 60_000);

  afterAll(async () => {
    if (instance?.child.exitCode === null) instance.child.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  it('is cut at once and logged, and the process exits 0 within the grace', async () => {
    const port = await freePort();
    const publicUrl = `http://localhost:${port}`;
    instance = startServer('export', port, {
      PRA_MODE: 'standalone',
      DATABASE_URL: database!.url,
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      DEMO_PASSWORD: 'Demo-Secret-2024!xyz',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: publicUrl,
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      SHUTDOWN_DRAIN_SECONDS: '1',
    });
    await waitUntilUp(instance, 60_000);
    // Some 15 MB of CSV: more than the sockets between the two hold, so a download this client
    // stops reading stays unfinished on the server.
    await runSql(
      database!.url,
      `insert into audit_events (action, outcome, details)
       select 'test.export', 'success', jsonb_build_object('n', n) from generate_series(1, 200000) n`,
    );
    const cookie = await signInToInstance({
      url: instance.url,
      publicUrl,
      databaseUrl: database!.url,
      dataDir,
      username: 'admin',
    });
    const res = await fetch(`${instance.url}${adminApi.auditExport}?action=test.export`, {
      headers: { cookie, 'x-pra-api-call': 'true' },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    const started = performance.now();
    instance.child.kill('SIGTERM');
    // The rest of the file: the download ends unfinished, not whole.
    const rest = (async () => {
      for (;;) if ((await reader.read()).done) return 'whole';
    })().catch(() => 'cut');
    const code = await instance.exit;
    const ms = performance.now() - started;
    const log = instance.output.join('');
    expect(code, log).toBe(0);
    expect(ms).toBeLessThan(GRACE_SECONDS * 1000);
    expect(await rest).toBe('cut');
    const lines = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.msg === 'download cut short')).toMatchObject([
      { level: 40, reason: 'the portal is stopping', file: expect.stringMatching(/^audit-[\d-]+\.csv$/) },
    ]);
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
  }, 120_000);
});
