import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testDatabaseKinds } from '../../test/support/databases';
import { demoDataNotice, loadConfig } from '../config';
import { openDatabase } from '../platform/db';
import { openPortalData } from '../startup';
import { announceDemoAccounts, demoAccountsFile, seedDemoData } from './demo-data';
import { verifyPassword } from './passwords';

describe('demo sign-in details file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function announce(dataDir: string, password: string, isStandalone = true) {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    announceDemoAccounts({ DATA_DIR: dataDir, publicUrl: 'http://localhost:8080', isStandalone }, password);
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

  it('points to the dev mailbox only where there is one (standalone)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pra-demo-'));
    dirs.push(dir);
    announce(dir, 'First-Password-1');
    expect(readFileSync(demoAccountsFile(dir), 'utf8')).toContain(
      'Mail sent by the portal appears at http://localhost:8080/dev/mailbox',
    );
    announce(dir, 'First-Password-1', false);
    const production = readFileSync(demoAccountsFile(dir), 'utf8');
    expect(production).toContain('password for every demo account: First-Password-1');
    expect(production).not.toContain('mailbox');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('standalone on a PostgreSQL DATABASE_URL', () => {
  it('creates no demo accounts unless DEMO_DATA=true, and says so at start', async () => {
    const handle = await createTestDatabase('postgres');
    const dataDir = mkdtempSync(join(tmpdir(), 'pra-demo-pg-'));
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (_fields: object, message: string) => warnings.push(message) };
    try {
      const config = loadConfig({ DATABASE_URL: handle.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const runtime = await openPortalData(config, log);
      await runtime.close();
      expect(await handle.db.selectFrom('accounts').select('username').execute()).toEqual([]);
      expect(warnings).toContain(demoDataNotice(config));

      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      const asked = loadConfig({ DATABASE_URL: handle.url, DATA_DIR: dataDir, DEMO_DATA: 'true' });
      await (await openPortalData(asked, log)).close();
      expect((await handle.db.selectFrom('accounts').select('username').execute()).length).toBeGreaterThan(0);
    } finally {
      vi.restoreAllMocks();
      rmSync(dataDir, { recursive: true, force: true });
      await handle.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('demo data seeding on postgres', () => {
  it('two instances seeding one empty database at the same instant: one seeds, the other finds it, neither fails', async () => {
    const handle = await createTestDatabase('postgres');
    // A second pool on the same database plays the second instance.
    const second = await openDatabase({ url: handle.url!, poolSize: 2 });
    try {
      const results = await Promise.all([
        seedDemoData(handle.db, 'Demo-Seed-Race-9x'),
        seedDemoData(second.db, 'Demo-Seed-Race-9x'),
      ]);
      expect(results.map((r) => r.created).sort()).toEqual([false, true]);
      const orgs = await handle.db.selectFrom('organizations').select('name').execute();
      expect(orgs.length).toBeGreaterThan(0);
      expect(new Set(orgs.map((o) => o.name)).size).toBe(orgs.length);
    } finally {
      await second.close();
      await handle.close();
    }
  });
});

describe.each(testDatabaseKinds)('demo data on %s', (kind) => {
  it("puts each demo account's initial password in its password history", async () => {
    const handle = await createTestDatabase(kind);
    try {
      expect((await seedDemoData(handle.db, 'Demo-History-Pass-7')).created).toBe(true);
      const accounts = await handle.db
        .selectFrom('accounts')
        .leftJoin('password_history', 'password_history.account_id', 'accounts.id')
        .select(['accounts.username', 'accounts.password_hash', 'password_history.password_hash as earlier'])
        .execute();
      expect(accounts.length).toBeGreaterThan(0);
      for (const account of accounts) {
        expect(account.earlier, account.username).toBe(account.password_hash);
      }
      expect(await verifyPassword(accounts[0]!.earlier, 'Demo-History-Pass-7')).toBe(true);
    } finally {
      await handle.close();
    }
  });
});
