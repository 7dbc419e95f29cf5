// A new production deployment: an empty PostgreSQL database, nothing seeded. The operators' CLI
// (the built dist/admin.js, as a deployment runs it) migrates it, makes the first admin and imports two
// organizations from CSV; that admin then signs in through the real SAML ACS and sees them.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminApi } from '@pra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/platform/db';
import { createEmptyPostgresDatabase, dropPostgresDatabase } from './support/databases';
import { buildServer, serverDir } from './support/server-process';
import { signInAs } from './support/sign-in';
import { testContext, TEST_SECRET, type TestApp } from './support/test-app';

const adminUrl = process.env.TEST_DATABASE_URL;
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));

describe.skipIf(!adminUrl)('production bootstrap with the CLI on an empty PostgreSQL database', () => {
  const name = `pra_boot_${randomBytes(5).toString('hex')}`;
  let url: string;
  let dir: string;
  let env: Record<string, string>;
  let database: DatabaseHandle | undefined;
  let t: TestApp | undefined;

  beforeAll(async () => {
    url = await createEmptyPostgresDatabase(adminUrl!, name);
    dir = mkdtempSync(join(tmpdir(), 'pra-boot-'));
    // Every production setting, as the deployment's environment would have them.
    env = {
      PRA_MODE: 'production',
      DATABASE_URL: url,
      SMTP_URL: 'smtp://127.0.0.1:2525',
      SESSION_SECRET: TEST_SECRET,
      PUBLIC_URL: 'http://localhost:8080',
      SAML_SP_KEY_FILE: fixture('sp.key'),
      SAML_SP_CERT_FILE: fixture('sp.crt'),
      DATA_ENCRYPTION_KEY: 'test-encryption-key-test-encryption-key',
      IDP: 'builtin',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      // This test is about bootstrapping; a loaded test machine's event-loop lag must not shed its
      // sign-in (503), as it did under CI-like load.
      SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    };
    buildServer();
  });

  afterAll(async () => {
    await t?.app.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
    await dropPostgresDatabase(adminUrl!, name);
  });

  // The CLI gets only what it uses: production mode and the database (no relay, keys or IdP).
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['dist/admin.js', ...args], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), PRA_MODE: 'production', DATABASE_URL: url },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('creates the first admin and two organizations from CSV; the admin signs in and sees them', async () => {
    // The schema first, as the database owner would (OPERATIONS.md): each migration reported.
    const migrated = cli(['migrate']);
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(/^applied migration 0001-initial in \d+ ms\n/);
    const created = cli([
      'create-admin',
      'ops.lead',
      '--email',
      'ops.lead@hospital.example',
      '--given-name',
      'Olive',
      '--family-name',
      'Lead',
    ]);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const csv = join(dir, 'organizations.csv');
    writeFileSync(
      csv,
      [
        'organization,domains,brm_username,brm_email,brm_given_name,brm_family_name',
        'Contoso Medical,contoso.example,cbrm,cbrm@hospital.example,Carla,Brm',
        'Fabrikam Devices,fabrikam.example fabrikam-devices.example,cbrm,,,',
        '',
      ].join('\n'),
    );
    expect(cli(['import', csv]).stdout).toContain('Dry run: nothing was written.');
    const applied = cli(['import', csv, '--apply']);
    expect(applied.status).toBe(0);
    expect(applied.stdout).toContain('row 3: create organization "Fabrikam Devices"');

    // The server, on the same database, in production mode.
    const config = loadConfig(env);
    expect(config.isStandalone).toBe(false);
    database = await openDatabase({ url, poolSize: 3 });
    const ctx = await testContext(config, database);
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    const signedInApp: TestApp = { app, ctx, databaseUrl: url, close: async () => {} };
    t = signedInApp;
    const client = await signInAs(signedInApp, 'ops.lead');
    const res = await client.get(adminApi.organizations);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      organizations: [
        { name: 'Contoso Medical', domains: ['contoso.example'], brms: ['cbrm'], isActive: true },
        {
          name: 'Fabrikam Devices',
          domains: ['fabrikam-devices.example', 'fabrikam.example'],
          brms: ['cbrm'],
        },
      ],
    });
    // Nothing but what the CLI made: no demo data in production.
    const people = (await client.get(adminApi.people)).json<{ people: { username: string }[] }>();
    expect(people.people.map((p) => p.username)).toEqual(['cbrm', 'ops.lead']);
  }, 300_000);
});
