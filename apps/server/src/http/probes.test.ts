import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../platform/db';
import { createTestDatabase } from '../../test/support/databases';
import { testContext } from '../../test/support/test-app';
import { registerDraining } from './draining';

async function appOn(database: Awaited<ReturnType<typeof openDatabase>>): Promise<FastifyInstance> {
  const app = await buildApp(await testContext(loadConfig({ LOG_LEVEL: 'silent' }), database), {
    logger: false,
  });
  return app;
}

describe('liveness and readiness probes', () => {
  let app: FastifyInstance;
  let draining: ReturnType<typeof registerDraining>;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    app = await appOn(database);
    draining = registerDraining(app);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('answers liveness and readiness with 200 and no detail', async () => {
    const live = await app.inject({ method: 'GET', url: '/healthz' });
    expect([live.statusCode, live.body]).toEqual([200, 'ok\n']);
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect([ready.statusCode, ready.body]).toEqual([200, 'ready\nidentity service: available\n']);
  });

  it('is not ready as soon as draining starts, while liveness stays up', async () => {
    draining.start();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers.connection).toBe('close');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('readiness without a usable database', () => {
  it('is 503 while migrations are not applied, then 200 once they are', async () => {
    const database = await openDatabase({}); // fresh embedded database, not migrated
    const app = await appOn(database);
    try {
      const before = await app.inject({ method: 'GET', url: '/readyz' });
      expect([before.statusCode, before.body]).toEqual([503, 'not ready\n']);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const { migrateToLatest } = await import('../platform/db');
      await migrateToLatest(database.db);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
    // A new embedded database runs initdb and every migration: seconds alone, over a minute on a
    // CI machine busy with the browser journeys.
  }, 150_000);

  it('is 503 when the database does not answer', async () => {
    const database = await createTestDatabase('pglite');
    const app = await appOn(database);
    try {
      await database.db.destroy();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect([res.statusCode, res.body]).toEqual([503, 'not ready\n']);
    } finally {
      await app.close();
      await database.close().catch(() => {});
    }
  });
});
