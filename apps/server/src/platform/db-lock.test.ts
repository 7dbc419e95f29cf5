import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { lockDataDir } from './db';

describe('lockDataDir', () => {
  it('refuses a folder another live process holds, and frees it on release', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pra-lock-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // The parent of this test process is alive for the whole test.
    writeFileSync(join(dir, 'portal.pid'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(/Another PRA Portal process \(pid \d+\)/);
    writeFileSync(join(dir, 'portal.pid'), '');
    const release = lockDataDir(dir);
    release();
    const again = lockDataDir(dir);
    again();
  });

  it('takes over a folder whose holder has died', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pra-lock-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'portal.pid'), '2147483646');
    const release = lockDataDir(dir);
    release();
  });
});
