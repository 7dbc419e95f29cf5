import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  configurationTable,
  demoDataNotice,
  envExample,
  envFileValue,
  exposureWarning,
  loadConfig,
  productionRequired,
} from './config';

/** Every setting production mode requires. */
const productionSettings = {
  PRA_MODE: 'production',
  DATABASE_URL: 'postgres://db/pra',
  SMTP_URL: 'smtp://relay:25',
  SESSION_SECRET: 'x'.repeat(40),
  PUBLIC_URL: 'https://pra.hospital.example',
  IDP_METADATA: '/etc/pra/idp.xml',
  SAML_SP_KEY_FILE: '/etc/pra/sp.key',
  SAML_SP_CERT_FILE: '/etc/pra/sp.crt',
  DATA_ENCRYPTION_KEY: 'y'.repeat(40),
};

describe('config', () => {
  it('refuses TEST_CLOCK in production, naming it', () => {
    expect(() => loadConfig({ ...productionSettings, TEST_CLOCK: '1' })).toThrow(
      /TEST_CLOCK: TEST_CLOCK is not allowed in production/,
    );
    expect(loadConfig({ TEST_CLOCK: '1' }).TEST_CLOCK).toBe(true);
  });

  it('checks PORTAL_TIME_ZONE and GOVERNANCE_SWEEP_MINUTES', () => {
    expect(loadConfig({}).PORTAL_TIME_ZONE).toBe('America/New_York');
    expect(loadConfig({}).GOVERNANCE_SWEEP_MINUTES).toBe(15);
    expect(() => loadConfig({ PORTAL_TIME_ZONE: 'Mars/Olympus' })).toThrow(/PORTAL_TIME_ZONE/);
    expect(() => loadConfig({ GOVERNANCE_SWEEP_MINUTES: '61' })).toThrow(/GOVERNANCE_SWEEP_MINUTES/);
    expect(() => loadConfig({ GOVERNANCE_SWEEP_MINUTES: '0' })).toThrow(/GOVERNANCE_SWEEP_MINUTES/);
  });

  it('defaults to standalone mode on port 8080 with the built-in IdP', () => {
    const config = loadConfig({});
    expect(config.PRA_MODE).toBe('standalone');
    expect(config.PORT).toBe(8080);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.idp).toBe('builtin');
    expect(config.demoData).toBe(true);
    expect(config.insecureCookies).toBe(true);
  });

  it('listens on loopback in standalone mode unless HOST says otherwise', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('warns at start when standalone mode listens beyond this machine', () => {
    for (const HOST of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) {
      expect(exposureWarning(loadConfig({ HOST }))).toBeNull();
    }
    for (const HOST of ['0.0.0.0', '::', '192.168.1.10', 'portal.example']) {
      expect(exposureWarning(loadConfig({ HOST }))).toMatch(
        new RegExp(`^WARNING: standalone mode is listening on ${HOST.replace(/\./g, '\\.')}, reachable`),
      );
    }
  });

  it('names every bad variable', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', SESSION_LIFETIME_MINUTES: '0', DATABASE_URL: 'mysql://x' }),
    ).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*SESSION_LIFETIME_MINUTES|PORT[\s\S]*SESSION_LIFETIME_MINUTES[\s\S]*DATABASE_URL/,
    );
    expect(() => loadConfig({ IIQ_MAINTENANCE: 'maybe' })).toThrow(/IIQ_MAINTENANCE/);
  });

  it('trusts proxies only by hop count or address, never all of them', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });

  it('requires the production settings in production mode', () => {
    expect(() => loadConfig({ PRA_MODE: 'production' })).toThrow(
      /DATABASE_URL: required[\s\S]*SMTP_URL: required[\s\S]*DATA_ENCRYPTION_KEY: required[\s\S]*IDP_METADATA: required/,
    );
    const full = productionSettings;
    const config = loadConfig(full);
    expect(config.HOST).toBe('0.0.0.0');
    expect(exposureWarning(config)).toBeNull();
    expect(config.idp).toBe('external');
    expect(config.demoData).toBe(false);
    expect(config.insecureCookies).toBe(false);
    expect(() => loadConfig({ ...full, IDP_METADATA: '' })).toThrow(/IDP_METADATA/);
    expect(config.metrics).toBeNull();
    // The listener is unauthenticated: loopback unless METRICS_HOST names another interface.
    expect(loadConfig({ ...full, METRICS_PORT: '9100' }).metrics).toEqual({
      port: 9100,
      host: '127.0.0.1',
      byDefault: false,
    });
    expect(loadConfig({ ...full, METRICS_PORT: '9100', METRICS_HOST: '0.0.0.0' }).metrics?.host).toBe(
      '0.0.0.0',
    );
  });

  /** The message loadConfig refuses `env` with ('' when it does not). */
  const refusal = (env: Record<string, string>, use?: 'server' | 'admin') => {
    try {
      loadConfig(env, use);
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('refuses PUBLIC_URL with a path, query or credentials, naming it', () => {
    for (const PUBLIC_URL of [
      'https://pra.hospital.example/portal',
      'https://pra.hospital.example/?x=1',
      'https://user:pw@pra.hospital.example',
    ]) {
      expect(refusal({ ...productionSettings, PUBLIC_URL })).toMatch(
        /PUBLIC_URL: must be an origin only \(scheme, host and port, e\.g\. https:\/\/pra\.hospital\.example\)/,
      );
    }
    expect(refusal({ PUBLIC_URL: 'http://localhost:8080/portal' })).toMatch(
      /PUBLIC_URL: must be an origin only/,
    );
    expect(refusal({ PUBLIC_URL: 'ftp://pra.hospital.example' })).toMatch(
      /PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL, not ftp:/,
    );
    expect(refusal({ ...productionSettings, PUBLIC_URL: 'https://pra.hospital.example/' })).toBe('');
  });

  it('refuses PUBLIC_URL on plain http in production, except on this machine', () => {
    expect(refusal({ ...productionSettings, PUBLIC_URL: 'http://pra.hospital.example' })).toMatch(
      /PUBLIC_URL: must be https:\/\/ in production/,
    );
    expect(refusal({ ...productionSettings, PUBLIC_URL: 'http://10.0.0.5:8080' })).toMatch(
      /PUBLIC_URL: must be https/,
    );
    expect(refusal({ ...productionSettings, PUBLIC_URL: 'http://localhost:8080' })).toBe('');
    expect(refusal({ PUBLIC_URL: 'http://pra.hospital.example' })).toBe('');
  });

  it('refuses http:// IdP metadata in production, naming IDP_METADATA', () => {
    expect(refusal({ ...productionSettings, IDP_METADATA: 'http://idp.hospital.example/metadata' })).toMatch(
      /IDP_METADATA: must be an https:\/\/ URL or a file in production/,
    );
    expect(refusal({ ...productionSettings, IDP_METADATA: 'HTTP://idp.hospital.example/metadata' })).toMatch(
      /IDP_METADATA: must be an https/,
    );
    expect(refusal({ ...productionSettings, IDP_METADATA: 'https://idp.hospital.example/metadata' })).toBe(
      '',
    );
    expect(refusal({ IDP: 'external', IDP_METADATA: 'http://localhost:9000/metadata' })).toBe('');
  });

  it('refuses DATA_ENCRYPTION_KEY equal to SESSION_SECRET', () => {
    const same = 'z'.repeat(40);
    expect(refusal({ ...productionSettings, SESSION_SECRET: same, DATA_ENCRYPTION_KEY: same })).toMatch(
      /DATA_ENCRYPTION_KEY: must differ from SESSION_SECRET/,
    );
    expect(refusal({ SESSION_SECRET: same, DATA_ENCRYPTION_KEY: same })).toMatch(
      /DATA_ENCRYPTION_KEY: must differ/,
    );
  });

  it('refuses other wrong settings, each naming its variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: '0' }, /PORT: must be 1-65535 in production/],
      [{ PORT: '65536' }, /PORT: /],
      [{ PORT: '-1' }, /PORT: /],
      [{ PORT: '8080', METRICS_PORT: '8080' }, /METRICS_PORT: must differ from PORT \(8080\)/],
      [{ METRICS_PORT: '65536' }, /METRICS_PORT: must be a port number or off/],
      [{ SMTP_URL: 'smtp://' }, /SMTP_URL: must name the relay/],
      [{ SMTP_URL: 'relay.hospital.example:25' }, /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/],
      [{ DATABASE_URL: 'db.hospital.example/pra' }, /DATABASE_URL: must be a postgres:\/\/ URL/],
      [{ PUBLIC_URL: 'pra.hospital.example' }, /PUBLIC_URL: /],
      [{ SESSION_SECRET: 'short' }, /SESSION_SECRET: /],
      [{ DATA_ENCRYPTION_KEY: 'short' }, /DATA_ENCRYPTION_KEY: /],
      [{ MAIL_FROM: 'PRA Portal' }, /MAIL_FROM: must be an address/],
      [{ MAIL_FROM: 'a@b c@d' }, /MAIL_FROM: must be an address/],
      [
        { CREDENTIAL_VAULT_URL: 'javascript:alert(1)' },
        /CREDENTIAL_VAULT_URL: must be an http:\/\/ or https:\/\/ URL/,
      ],
      [{ SUPPORT_EMAIL: 'support' }, /SUPPORT_EMAIL: /],
      [{ IDP: 'saml' }, /IDP: /],
      [{ PRA_MODE: 'prod' }, /PRA_MODE: /],
      [{ TRUST_PROXY: 'all' }, /TRUST_PROXY: /],
      [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE: /],
      [{ SHUTDOWN_GRACE_SECONDS: '1.5' }, /SHUTDOWN_GRACE_SECONDS: /],
    ];
    for (const [env, message] of cases) {
      expect(refusal({ ...productionSettings, ...env }), JSON.stringify(env)).toMatch(message);
    }
    expect(refusal({ ...productionSettings, MAIL_FROM: 'Hospital IT <it@hospital.example>' })).toBe('');
    expect(refusal({ ...productionSettings, MAIL_FROM: 'it@hospital.example' })).toBe('');
  });

  it("asks the operators' CLI in production for DATABASE_URL only, the server for all it uses", () => {
    expect(refusal({ PRA_MODE: 'production' }, 'admin')).toBe(
      'Invalid configuration:\n  DATABASE_URL: required in production mode',
    );
    const cli = loadConfig({ PRA_MODE: 'production', DATABASE_URL: 'postgres://db/pra' }, 'admin');
    expect(cli.DATABASE_URL).toBe('postgres://db/pra');
    expect(cli.idp).toBe('external');
    // A wrong value is still named, whoever reads it.
    expect(refusal({ PRA_MODE: 'production', DATABASE_URL: 'mysql://db' }, 'admin')).toMatch(
      /DATABASE_URL: must be/,
    );
    expect(refusal({ PRA_MODE: 'production', DATABASE_URL: 'postgres://db/pra' })).toMatch(
      /SMTP_URL: required[\s\S]*SAML_SP_KEY_FILE: required[\s\S]*IDP_METADATA: required/,
    );
  });

  it('creates no demo data in standalone on DATABASE_URL unless DEMO_DATA=true, and says so', () => {
    const postgres = { DATABASE_URL: 'postgres://db.example/portal' };
    expect(loadConfig({}).demoData).toBe(true);
    expect(demoDataNotice(loadConfig({}))).toBeNull();
    const onPostgres = loadConfig(postgres);
    expect(onPostgres.demoData).toBe(false);
    expect(demoDataNotice(onPostgres)).toMatch(/no demo data is created; set DEMO_DATA=true/);
    const asked = loadConfig({ ...postgres, DEMO_DATA: 'true' });
    expect(asked.demoData).toBe(true);
    expect(demoDataNotice(asked)).toBeNull();
    expect(demoDataNotice(loadConfig({ ...postgres, DEMO_DATA: 'false' }))).toBeNull();
    expect(demoDataNotice(loadConfig(productionSettings))).toBeNull();
  });

  it('listens for metrics on loopback by default in standalone, and can be turned off', () => {
    expect(loadConfig({}).metrics).toEqual({ port: 9464, host: '127.0.0.1', byDefault: true });
    expect(loadConfig({ METRICS_PORT: 'off' }).metrics).toBeNull();
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'on' })).toThrow(/METRICS_PORT/);
  });

  it('drains at shutdown in production only, unless told, and never past half the grace', () => {
    const production = productionSettings;
    expect(
      [4, 10, 20, 60].map(
        (grace) => loadConfig({ ...production, SHUTDOWN_GRACE_SECONDS: String(grace) }).shutdownDrainMs,
      ),
    ).toEqual([1000, 2500, 5000, 5000]);
    expect(loadConfig({}).shutdownDrainMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '1' }).shutdownDrainMs).toBe(1000);
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '4', SHUTDOWN_DRAIN_SECONDS: '30' }).shutdownDrainMs).toBe(
      2000,
    );
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
  });

  it('keeps .env.example in step with the schema (npm run docs:env)', () => {
    const file = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    expect(file).toBe(envExample());
  });

  it(".env.example's lines, once uncommented, read back as the defaults; as shipped it refuses to start", () => {
    const example = envExample();
    const asShipped = parseEnv(example);
    expect(asShipped.PRA_MODE).toBe('production');
    expect(() => loadConfig(asShipped)).toThrow(
      new RegExp(productionRequired.map((name) => `${name}: required in production mode`).join('[\\s\\S]*')),
    );
    // Every commented default, uncommented, is the value the schema would take without it.
    const uncommented = parseEnv(example.replace(/^# ([A-Z_]+=)/gm, '$1'));
    const defaults = loadConfig({});
    expect(uncommented.MAIL_FROM).toBe('PRA Portal <pra-portal@localhost>');
    expect(uncommented.HOSPITAL_NAME).toBe(defaults.HOSPITAL_NAME);
    expect(uncommented.PASSWORD_BLOCKED_WORDS).toBe(defaults.PASSWORD_BLOCKED_WORDS.join(','));
    const filled = {
      ...uncommented,
      PRA_MODE: 'standalone',
      ...Object.fromEntries(productionRequired.map((name) => [name, undefined])),
    };
    const fromFile = loadConfig(filled);
    expect(fromFile).toEqual(loadConfig({ PRA_MODE: 'standalone' }));
  });

  it('quotes an environment-file value only when it needs it, and refuses one it cannot write', () => {
    expect(envFileValue('postgres://u@db:5432/pra')).toBe('postgres://u@db:5432/pra');
    expect(envFileValue('General Hospital')).toBe('"General Hospital"');
    expect(envFileValue('a "b" c')).toBe(`'a "b" c'`);
    expect(parseEnv(`X=${envFileValue('PRA <x@y> #1')}\n`).X).toBe('PRA <x@y> #1');
    expect(() => envFileValue('cost $5')).toThrow(/cannot write/);
    expect(() => envFileValue(`it's "x"`)).toThrow(/cannot write/);
  });

  it('keeps the README configuration table in step with the schema', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(configurationTable());
  });
});
