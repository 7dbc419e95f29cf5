// The built server (dist/server.js) refuses a wrong production setting before it touches the
// database, exits 1 and names the variable; a certificate near its end starts with a warning and
// shows its end as a metric.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildServer,
  freePort,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';
import { makeCertificate } from './support/nginx';

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));

describe('the server refuses wrong production settings, naming the variable', () => {
  let dir: string;
  const started: Instance[] = [];
  beforeAll(() => {
    buildServer();
    dir = mkdtempSync(join(tmpdir(), 'pra-refusals-'));
  });
  afterAll(async () => {
    await Promise.all(started.map(stopServer));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every production setting, right; the database is never reached by a refused start. */
  const production = () => ({
    PRA_MODE: 'production',
    DATABASE_URL: 'postgres://127.0.0.1:1/never-reached',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    SESSION_SECRET: 'session-secret-session-secret-session',
    DATA_ENCRYPTION_KEY: 'encryption-key-encryption-key-encryption',
    PUBLIC_URL: 'https://pra.hospital.example',
    SAML_SP_KEY_FILE: fixture('sp.key'),
    SAML_SP_CERT_FILE: fixture('sp.crt'),
    IDP_METADATA: join(dir, 'idp-metadata.xml'),
    DATA_DIR: dir,
    DATABASE_STARTUP_WAIT_SECONDS: '0',
  });

  async function refusedStart(env: Record<string, string>, port?: number): Promise<string> {
    const instance = startServer('refused', port ?? (await freePort()), env);
    started.push(instance);
    const code = await instance.exit;
    const output = instance.output.join('');
    expect(code, output).toBe(1);
    return output;
  }

  it('a key and certificate that do not match', async () => {
    const output = await refusedStart({ ...production(), SAML_SP_CERT_FILE: fixture('idp.crt') });
    expect(output).toContain(
      `PRA Portal failed to start: SAML_SP_KEY_FILE and SAML_SP_CERT_FILE do not match: the key in ${fixture('sp.key')} is not the one ${fixture('idp.crt')} certifies`,
    );
  });

  it('a metadata file that is not there', async () => {
    const output = await refusedStart(production());
    expect(output).toContain(
      `PRA Portal failed to start: IDP_METADATA: cannot read ${join(dir, 'idp-metadata.xml')}: no such file`,
    );
    expect(output).not.toContain('ENOENT');
  });

  it('PUBLIC_URL with a path, http:// IdP metadata and one key for two uses: all named at once', async () => {
    const output = await refusedStart({
      ...production(),
      PUBLIC_URL: 'http://pra.hospital.example/portal',
      IDP_METADATA: 'http://idp.hospital.example/metadata',
      DATA_ENCRYPTION_KEY: 'session-secret-session-secret-session',
    });
    expect(output).toContain('Invalid configuration:\n');
    expect(output).toContain('  PUBLIC_URL: must be an origin only');
    expect(output).toContain('  IDP_METADATA: must be an https:// URL or a file in production');
    expect(output).toContain('  DATA_ENCRYPTION_KEY: must differ from SESSION_SECRET');
  });

  it('a port another process holds', async () => {
    const holder = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const output = await refusedStart(production(), port);
      expect(output).toContain(
        `PRA Portal failed to start: PORT, HOST: cannot listen on 127.0.0.1:${port}: another process listens there already (EADDRINUSE)`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('starts with a certificate that ends within 30 days, warning, and shows its end as a metric (and logs each migration)', async () => {
    const soon = join(dir, 'soon');
    mkdirSync(soon);
    makeCertificate(soon, 10);
    const [key, cert] = [join(soon, 'key.pem'), join(soon, 'cert.pem')];
    const metricsPort = await freePort();
    const instance = startServer('soon', await freePort(), {
      DATA_DIR: join(dir, 'standalone'),
      DEMO_DATA: 'false',
      SAML_SP_KEY_FILE: key,
      SAML_SP_CERT_FILE: cert,
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'info',
    });
    started.push(instance);
    // A first start on a new embedded database runs PGlite's initdb: about 13 s of CPU, and over a
    // minute of wall time on a loaded 2-core machine (Node 22 beside the journeys took 90 s).
    await waitUntilUp(instance, 240_000);
    const end = new Date(
      execFileSync('openssl', ['x509', '-in', cert, '-noout', '-enddate'], { encoding: 'utf8' }).replace(
        'notAfter=',
        '',
      ),
    );
    expect(instance.output.join('')).toMatch(
      /SAML_SP_CERT_FILE: the SAML SP certificate expires on \S+ \(in 9 days\): make a new key pair/,
    );
    // A first start on a new database: each migration applied is logged with its time.
    expect(instance.output.join('')).toMatch(
      /"migration":"0001-initial","ms":\d+,"msg":"applied migration 0001-initial in \d+ ms"/,
    );
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain(
      `pra_saml_sp_certificate_expiry_timestamp_seconds ${Math.floor(end.getTime() / 1000)}`,
    );
    expect(await stopServer(instance)).toBe(0);
  }, 300_000);
});
