import Fastify from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { currentScope } from '../platform/request-scope';
import { registerObservability, scopedRequestsAtWork } from './observability';

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
  app.get('/fails', async () => {
    await sleep(5);
    throw new Error('failed');
  });
  app.get('/hot', { config: { audits: false } }, seen);
  // A slow scoped request whose client leaves: what its handler sees once the client is gone.
  let afterClientLeft: (id: string | null) => void = () => {};
  const seenAfterClientLeft = new Promise<string | null>((resolve) => (afterClientLeft = resolve));
  app.get('/slow', async (request) => {
    await new Promise<void>((resolve) => request.raw.once('close', () => resolve()));
    await sleep(20);
    afterClientLeft(currentScope().requestId);
    return {};
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return ((await res.json()) as { requestId: string | null }).requestId;
  };
  return { app, get, port, seenAfterClientLeft };
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
      expect(scopedRequestsAtWork()).toBe(0);
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

  it("stays on for a request whose client has gone, until the request's own work is over", async () => {
    const { app, get, port, seenAfterClientLeft } = await appWithScopes();
    try {
      const client = new AbortController();
      const slow = fetch(`http://127.0.0.1:${port}/slow`, { signal: client.signal }).catch(() => null);
      await sleep(50);
      client.abort();
      await slow;
      // It was the only scoped request; its handler still carries on in its scope.
      expect(await seenAfterClientLeft).toMatch(/^req-/);
      expect(await get('/scoped')).toMatch(/^req-/);
      expect(await get('/hot')).toBeNull();
      // Every way a request ends takes it out of the count: the storage goes off again.
      await fetch(`http://127.0.0.1:${port}/fails`);
      await fetch(`http://127.0.0.1:${port}/nowhere`);
      await sleep(20);
      expect(scopedRequestsAtWork()).toBe(0);
    } finally {
      await app.close();
    }
  });
});
