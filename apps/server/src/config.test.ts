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
