import Fastify from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { currentScope } from '../platform/request-scope';
import { registerObservability } from './observability';

/** An app with the portal's observability and two routes that say which request scope they see, after awaits. */
async function appWithScopes() {
  const app = Fastify({ logger: false });
  registerObservability(app);
  const seen = async () => {
    await sleep(5);
    await Promise.resolve();
    return { requestId: currentScope().requestId };
  };
  app.get('/scoped', seen);
  app.get('/hot', { config: { audits: false } }, seen);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return ((await res.json()) as { requestId: string | null }).requestId;
  };
  return { app, get };
}

describe('the request scope', () => {
  it('follows each request across awaits; the hot reads marked audits: false run outside it', async () => {
    const { app, get } = await appWithScopes();
    try {
      // Interleaved: scoped requests in flight while hot reads run, each scoped one sees its own id.
      const ids = await Promise.all([
        get('/scoped'),
        get('/hot'),
        get('/scoped'),
        get('/hot'),
        get('/scoped'),
      ]);
      expect(ids[1]).toBeNull();
      expect(ids[3]).toBeNull();
      const scoped = [ids[0], ids[2], ids[4]];
      for (const id of scoped) expect(id).toMatch(/^req-/);
      expect(new Set(scoped).size).toBe(3);
      // Once none is in flight the storage is off; the next scoped request switches it back on.
      expect(await get('/hot')).toBeNull();
      expect(await get('/scoped')).toMatch(/^req-/);
      expect(await get('/scoped')).toMatch(/^req-/);
    } finally {
      await app.close();
    }
  });
});
