// Standalone with its data disk full: requests that must write answer 503 (not 500 with a stack
// per request), the log says it once a minute at most and names the disk, and the portal recovers
// by itself once space is freed. Needs a small tmpfs of its own (root, as in CI).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildServer,
  freePort,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

/** A tmpfs of `megabytes` at `dir`, when this process may mount one. */
function mountTmpfs(dir: string, megabytes: number): boolean {
  if (process.getuid?.() !== 0) return false;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]).status === 0;
}

const root = mkdtempSync(join(tmpdir(), 'pra-disk-full-'));
const mounted = mountTmpfs(root, 160);
if (!mounted) console.warn('SKIPPED disk-full.test.ts: cannot mount a tmpfs (needs root)');

describe.skipIf(!mounted)('standalone on a full disk', () => {
  let server: Instance | undefined;
  const dataDir = join(root, 'data');
  const filler = join(root, 'filler');

  beforeAll(async () => {
    buildServer();
    mkdirSync(dataDir);
    server = startServer('portal', await freePort(), {
      PRA_MODE: 'standalone',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      METRICS_PORT: 'off',
    });
    // A first start runs PGlite's initdb: over a minute on a loaded 2-core machine.
    await waitUntilUp(server, 240_000);
  }, 300_000);

  afterAll(async () => {
    await stopServer(server);
    spawnSync('umount', [root]);
    rmSync(root, { recursive: true, force: true });
  });

  const csrf = () => fetch(`${server!.url}/api/csrf`, { headers: { 'x-pra-api-call': 'true' } });

  it('answers 503, logs one line naming the disk, and recovers once space is freed', async () => {
    expect((await fetch(`${server!.url}/api/service_check`)).status).toBe(200);
    // Fill what is left of the disk (dd stops with ENOSPC, as a disk does).
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', 'count=400']);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await csrf()).status);
    expect(statuses).toEqual([503, 503, 503, 503, 503]);
    const output = server!.output.join('');
    const lines = output.split('\n').filter((line) => line.includes('database disk full'));
    expect(lines, output.slice(-3000)).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 50,
      reason: '53100',
      msg: `database disk full: nothing can be written until space is freed on the disk of DATA_DIR (${dataDir})`,
    });
    expect(output).not.toContain('unexpected error');
    expect(output).not.toContain('"stack"');

    rmSync(filler);
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 200; i++) {
      recovered = (await csrf()).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).toBe(200);
  }, 60_000);
});

describe.skipIf(!mounted)('standalone on a read-only data folder', () => {
  it('stops with a clear message naming DATA_DIR', async () => {
    const dir = join(tmpdir(), `pra-ro-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,ro', 'tmpfs', dir]);
    } catch {
      return; // cannot mount here: covered by the mount check above
    }
    try {
      // The folder itself read-only, and a folder to be made inside it.
      for (const dataDir of [dir, join(dir, 'data')]) {
        const instance = startServer('portal', await freePort(), {
          PRA_MODE: 'standalone',
          DATA_DIR: dataDir,
          METRICS_PORT: 'off',
        });
        const code = await instance.exit;
        const output = instance.output.join('');
        expect(code).toBe(1);
        expect(output).toContain(
          `PRA Portal failed to start: DATA_DIR (${dataDir}) is not writable: it is on a read-only file system.`,
        );
        expect(output).not.toContain('EROFS:');
      }
    } finally {
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
