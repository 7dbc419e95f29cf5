import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestDatabase } from '../../test/support/databases';
import { testContext } from '../../test/support/test-app';
import { registerDraining } from './draining';

describe('draining before shutdown', () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let app: FastifyInstance;
  let draining: ReturnType<typeof registerDraining>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase('pglite');
    app = await buildApp(await testContext(loadConfig({ LOG_LEVEL: 'silent' }), database), { logger: false });
    draining = registerDraining(app);
    // A request that arrives before the drain and answers during it.
    app.get('/test/held', async () => {
      await held;
      return { done: true };
    });
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(async () => close?.());

  it('keeps connections open, then answers with Connection: close and a 503 service check', async () => {
    const inFlight = app.inject({ method: 'GET', url: '/test/held' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = await app.inject({ method: 'GET', url: '/api/system/message' });
    expect(before.headers.connection).not.toBe('close');
    expect((await app.inject({ method: 'GET', url: '/api/service_check' })).statusCode).toBe(200);

    draining.start();
    const during = await app.inject({ method: 'GET', url: '/api/system/message' });
    expect(during.statusCode).toBe(200);
    expect(during.headers.connection).toBe('close');
    const check = await app.inject({ method: 'GET', url: '/api/service_check?x=1' });
    expect(check.statusCode).toBe(503);
    expect(check.body).toContain('DRAINING');
    // Arrived before the drain, answered during it: its socket closes too.
    release();
    expect((await inFlight).headers.connection).toBe('close');
  });
});
