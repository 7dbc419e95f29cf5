import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/platform/db';
import { testContext } from './support/test-app';
import type { FastifyInstance } from 'fastify';

/** PostgreSQL that does not answer: nothing listens on port 1. */
describe('with the database unreachable', () => {
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  beforeAll(async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    handle = await openDatabase({ url: config.DATABASE_URL, poolSize: 1 });
    app = await buildApp(await testContext(config, handle), { logger: false });
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
    expect(res.body).toBe('status: DEGRADED\n');
  });
});
