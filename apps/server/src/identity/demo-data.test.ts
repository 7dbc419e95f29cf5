import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { announceDemoAccounts, demoAccountsFile } from './demo-data';

describe('demo sign-in details file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function announce(dataDir: string, password: string) {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    announceDemoAccounts(dataDir, 'http://localhost:8080', password);
  }

  it('is owner-only when created and stays so when rewritten over a readable copy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pra-demo-'));
    dirs.push(dir);
    const file = demoAccountsFile(dir);
    announce(dir, 'First-Password-1');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // An older copy readable by others (writeFileSync's mode applies only on creation).
    writeFileSync(file, 'old\n');
    chmodSync(file, 0o644);
    announce(dir, 'Second-Password-2');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('password for every demo account: Second-Password-2');
  });
});
