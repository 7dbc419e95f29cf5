// The portal as a hospital runs it, for browser tests with a real external IdP: production mode,
// a fresh PostgreSQL database migrated and given its first accounts by the operators' CLI, an SMTP
// relay, the SP key files, and the IdP's metadata as IDP_METADATA; the IdP gets the portal's SP
// metadata once the portal is up.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildServer,
  freePort,
  scratchDatabase,
  serverDir,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './server-process';
import type { SimpleSamlPhp } from './simplesamlphp';
import { startRelay } from './smtp';
import { TEST_SECRET } from './test-app';

export interface ProductionPortal {
  origin: string;
  instance: Instance;
  databaseUrl: string;
  /** The SMTP relay the portal sends its mail to (messages kept for the tests to read). */
  relay: Awaited<ReturnType<typeof startRelay>>;
  close(): Promise<void>;
}

/** An admin (an employee) the operators' CLI creates before the first start. */
export interface FirstAccount {
  username: string;
  email: string;
  givenName: string;
  familyName: string;
}

export async function startProductionPortal(
  idp: SimpleSamlPhp,
  options: {
    admins: FirstAccount[];
    env?: Record<string, string>;
    /** More operators' CLI commands run before the first start (after the admins), e.g. org-add. */
    setup?: string[][];
  },
): Promise<ProductionPortal> {
  buildServer();
  const dir = mkdtempSync(join(tmpdir(), 'pra-production-portal-'));
  const database = await scratchDatabase();
  const cli = (args: string[]) => {
    const run = spawnSync(process.execPath, ['dist/admin.js', ...args], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: tmpdir(),
        PRA_MODE: 'production',
        DATABASE_URL: database.url,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (run.status !== 0) throw new Error(`admin ${args[0] ?? ''}: ${run.stderr}`);
  };
  cli(['migrate']);
  for (const admin of options.admins) {
    cli([
      'create-admin',
      admin.username,
      '--email',
      admin.email,
      '--given-name',
      admin.givenName,
      '--family-name',
      admin.familyName,
    ]);
  }
  for (const command of options.setup ?? []) cli(command);
  const metadataFile = join(dir, 'idp-metadata.xml');
  writeFileSync(metadataFile, await idp.idpMetadata());
  const smtpPort = await freePort();
  const relay = await startRelay(smtpPort, { keepMessages: true });
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const fixture = (name: string) => join(serverDir, 'test', 'fixtures', name);
  const instance = startServer('portal', port, {
    PRA_MODE: 'production',
    DATABASE_URL: database.url,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SESSION_SECRET: TEST_SECRET,
    PUBLIC_URL: origin,
    SAML_SP_KEY_FILE: fixture('sp.key'),
    SAML_SP_CERT_FILE: fixture('sp.crt'),
    DATA_ENCRYPTION_KEY: 'test-encryption-key-test-encryption-key',
    IDP: 'external',
    IDP_METADATA: metadataFile,
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'warn',
    METRICS_PORT: 'off',
    ...options.env,
  });
  const close = async () => {
    await stopServer(instance);
    await relay.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(instance, 60_000);
    // The IdP trusts the portal once it has the portal's SP metadata, as an operator hands it over.
    idp.trustServiceProvider(await (await fetch(`${origin}/api/saml/metadata`)).text());
  } catch (error) {
    await close();
    throw error;
  }
  return { origin, instance, databaseUrl: database.url, relay, close };
}
