import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../platform/logger';
import { OutageLog } from '../platform/outage-log';
import { registerErrorHandling } from './errors';

/** An app with the portal's error handler and logger (into an array), and a clock the test moves. */
async function appWithOutages() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  let now = 0;
  const app = Fastify({ logger: { ...(loggerOptions('info') as object), stream } });
  registerErrorHandling(app, {
    outages: new OutageLog('database unavailable', 10_000, () => now),
    poolWaits: new OutageLog('database pool busy', 10_000, () => now, 'warn'),
    diskFull: new OutageLog('database disk full on /data', 60_000, () => now),
  });
  app.get('/refused', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.get('/lost', async () => {
    throw new Error('query failed', { cause: new Error('Connection terminated unexpectedly') });
  });
  // pg-pool's own error when every connection stayed busy for the whole connection wait.
  app.get('/pool-wait', async () => {
    throw new Error('timeout exceeded when trying to connect');
  });
  app.get('/deadlock', async () => {
    throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
  });
  app.get('/serialization', async () => {
    throw Object.assign(new Error('could not serialize access'), { code: '40001' });
  });
  await app.ready();
  const errors = () => lines.filter((line) => line.level === 50);
  const warnings = () => lines.filter((line) => line.level === 40);
  return { app, errors, warnings, advance: (ms: number) => (now += ms) };
}

describe('a database outage in the log', () => {
  it('is one line at its first failure, then one per interval with the count of the rest; every request still gets its 503', async () => {
    const { app, errors, advance } = await appWithOutages();
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ method: 'GET', url: i % 2 ? '/lost' : '/refused' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        errors: ['The service is temporarily unavailable. Please try again shortly.'],
      });
    }
    expect(errors()).toEqual([
      expect.objectContaining({ msg: 'database unavailable', reason: 'ECONNREFUSED', moreSinceLastLine: 0 }),
    ]);
    advance(9_999);
    await app.inject({ method: 'GET', url: '/lost' });
    expect(errors()).toHaveLength(1);
    advance(1);
    await app.inject({ method: 'GET', url: '/lost' });
    expect(errors()).toHaveLength(2);
    expect(errors()[1]).toMatchObject({ reason: 'Connection terminated', moreSinceLastLine: 5 });
    // Nothing from the error itself: no message, no stack (they may carry data).
    expect(JSON.stringify(errors())).not.toContain('127.0.0.1');
    await app.close();
  });

  it('logs a wait for a pool connection as overload (a warning), not as the database being unavailable', async () => {
    const { app, errors, warnings, advance } = await appWithOutages();
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/pool-wait' });
      expect(res.statusCode).toBe(503);
    }
    expect(errors()).toEqual([]);
    expect(warnings()).toEqual([
      expect.objectContaining({
        msg: 'database pool busy',
        reason: 'pool connection wait',
        moreSinceLastLine: 0,
      }),
    ]);
    advance(10_000);
    await app.inject({ method: 'GET', url: '/pool-wait' });
    expect(warnings()[1]).toMatchObject({ moreSinceLastLine: 2 });
    // A real outage still logs at error level, apart from the overload.
    await app.inject({ method: 'GET', url: '/refused' });
    expect(errors()).toEqual([
      expect.objectContaining({ msg: 'database unavailable', reason: 'ECONNREFUSED' }),
    ]);
    await app.close();
  });
});

describe('two transactions PostgreSQL would not let both go on', () => {
  it('answer 409 with a message to try again, logged as a warning with the code, never a 500', async () => {
    const { app, errors, warnings } = await appWithOutages();
    for (const url of ['/deadlock', '/serialization']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        errors: ['Someone else changed this at the same moment. Please try again.'],
      });
    }
    expect(errors()).toEqual([]);
    expect(warnings().map((w) => [w.msg, w.sqlState])).toEqual([
      ['transaction conflict', '40P01'],
      ['transaction conflict', '40001'],
    ]);
    await app.close();
  });
});
