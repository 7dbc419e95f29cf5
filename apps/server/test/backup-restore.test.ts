// A backup as docs/OPERATIONS.md prescribes it, restored into a fresh database: pg_dump -Fc of a
// portal's PostgreSQL database, pg_restore into a new one, the server started on it with the same
// environment (its secrets) and a new DATA_DIR. A vendor signs in through the built-in IdP on the
// restored database, whose signing keys (stored encrypted in it) are the ones it had.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../src/platform/db';
import { Browser, signInThroughBuiltinIdp } from './support/http-browser';
import {
  buildServer,
  freePort,
  runSql,
  scratchDatabase,
  serverDir,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

const DEMO_PASSWORD = 'Restore-Demo-Secret-2024!';

/** docs/OPERATIONS.md's statements for the server's own role (run as the owner, after migrating). */
const appRoleGrants = (role: string, database: string) => [
  `create role ${role} login`,
  `grant connect on database ${database} to ${role}`,
  `grant usage on schema public to ${role}`,
  `grant select, insert, update, delete on all tables in schema public to ${role}`,
  `revoke update, delete on audit_events from ${role}`,
  `grant usage, select on all sequences in schema public to ${role}`,
];

describe.skipIf(!process.env.TEST_DATABASE_URL)('a pg_dump backup restored into a fresh database', () => {
  let dir: string;
  let original: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let restored: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  const started: Instance[] = [];
  const roles: string[] = [];

  beforeAll(() => {
    buildServer();
    dir = mkdtempSync(join(tmpdir(), 'pra-restore-'));
  });
  afterAll(async () => {
    await Promise.all(started.map(stopServer));
    await original?.drop();
    await restored?.drop();
    for (const role of roles)
      await runSql(process.env.TEST_DATABASE_URL ?? '', `drop role if exists ${role}`);
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The environment file: the same secrets before and after the restore, a DATA_DIR of each host.
   * Demo data is made on the original only: whatever the restored one has came from the dump.
   */
  const env = (databaseUrl: string, dataDir: string, port: number, demoData: boolean) => ({
    PRA_MODE: 'standalone',
    IDP: 'builtin',
    DATABASE_URL: databaseUrl,
    DATA_DIR: join(dir, dataDir),
    SESSION_SECRET: 'restore-session-secret-restore-session-secret',
    DATA_ENCRYPTION_KEY: 'restore-encryption-key-restore-encryption-key',
    DEMO_DATA: String(demoData),
    DEMO_PASSWORD,
    PUBLIC_URL: `http://localhost:${port}`,
    LOG_LEVEL: 'warn',
  });

  const admin = (args: string[], databaseUrl: string) =>
    spawnSync(process.execPath, ['dist/admin.js', ...args], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: tmpdir(),
        PRA_MODE: 'production',
        DATABASE_URL: databaseUrl,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });

  async function start(
    name: string,
    databaseUrl: string,
    dataDir: string,
    demoData = false,
  ): Promise<Instance> {
    const port = await freePort();
    const instance = startServer(name, port, env(databaseUrl, dataDir, port, demoData));
    started.push(instance);
    await waitUntilUp(instance, 60_000);
    return instance;
  }

  /** The built-in IdP's signing certificate, as its metadata publishes it. */
  async function idpCertificate(instance: Instance): Promise<string | undefined> {
    const metadata = await (await fetch(`${instance.url}/idp/metadata`)).text();
    return /<ds:X509Certificate>([^<]+)</.exec(metadata)?.[1];
  }

  it('signs a vendor in on the restored database, with the same IdP keys and data', async () => {
    original = await scratchDatabase();
    // The data: the seed's organizations and vendors, and one organization the CLI adds.
    const before = await start('original', original.url, 'host-a', true);
    const added = admin(['org-add', 'Restored Devices', '--domain', 'restored.example'], original.url);
    expect(added.status, added.stderr).toBe(0);
    const idpCertBefore = await idpCertificate(before);
    expect(idpCertBefore).toMatch(/^MII/);
    expect(await stopServer(before)).toBe(0);

    const dump = join(dir, 'pra.dump');
    execFileSync('pg_dump', ['-Fc', '-f', dump, original.url], { stdio: 'pipe' });
    restored = await scratchDatabase();
    execFileSync('pg_restore', ['--no-owner', '--exit-on-error', '-d', restored.url, dump], {
      stdio: 'pipe',
    });

    // Upgrade-style, as OPERATIONS.md says: migrations as the owner, the server as a role that may
    // only read and write rows (and only add to the audit trail).
    const migrated = admin(['migrate'], restored.url);
    expect(migrated.stdout).toBe(`Database schema ${buildSchema}: up to date.\n`);
    const role = `pra_app_${randomBytes(4).toString('hex')}`;
    roles.push(role);
    for (const statement of appRoleGrants(role, restored.name)) await runSql(restored.url, statement);
    const asApp = new URL(restored.url);
    asApp.username = role;
    asApp.password = '';
    const after = await start('restored', asApp.toString(), 'host-b');
    expect(await idpCertificate(after)).toBe(idpCertBefore);
    const browser = new Browser();
    const acs = await signInThroughBuiltinIdp(browser, [after.url], {
      username: 'jdoe',
      password: DEMO_PASSWORD,
    });
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/welcome');
    const user = await browser.fetch(`${after.url}/api/user`, { headers: { 'x-pra-api-call': 'true' } });
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ username: 'jdoe' });
    expect(await stopServer(after)).toBe(0);
    const listed = admin(['org-list'], restored.url);
    expect(listed.stdout).toContain('Restored Devices\tdomains: restored.example');
  }, 180_000);
});
