import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { sessionSettings } from '../src/http/session';
import { openDatabase, type DatabaseHandle } from '../src/platform/db';
import { createEncryptor } from '../src/platform/encryption';
import { builtinIdpDescription } from '../src/platform/idp-metadata';
import { fixtureKeys, TEST_SECRET } from './support/test-app';
import type { FastifyInstance } from 'fastify';

/** PostgreSQL that does not answer: nothing listens on port 1. */
describe('with the database unreachable', () => {
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  beforeAll(async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    handle = await openDatabase({ url: config.DATABASE_URL, poolSize: 1 });
    app = await buildApp(
      {
        config,
        db: handle.db,
        dbKind: handle.kind,
        session: sessionSettings(true, TEST_SECRET),
        keys: { sp: fixtureKeys('sp'), idp: fixtureKeys('idp') },
        idp: builtinIdpDescription(config.publicUrl, fixtureKeys('idp')),
        encryptor: createEncryptor('k'.repeat(32)),
        mailStatus: async () => ({ ok: true, text: 'test mailer' }),
      },
      { logger: false },
    );
  });
  afterAll(async () => {
    await app?.close();
    await handle?.close();
  });

  it('answers calls with 503 and a clear message', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/csrf' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      errors: ['The service is temporarily unavailable. Please try again shortly.'],
    });
  });

  it('reports the database down in the service check with 503', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/service_check' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('database: down');
  });
});
