import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getOverNewConnection as get } from '../../test/support/new-connection';
import { gateConnections, refusal, requestPath } from './connection-gate';

const answer = refusal('{"errors":["busy"]}');
const exempt = (path: string | undefined) => path === '/healthz';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** An http server answering 200 "served <path>", gated by `overloaded`, listening on a free port. */
async function gated(overloaded: () => boolean) {
  server = createServer((req, res) => {
    gate.read(req.socket);
    res.end(`served ${req.url}`);
  });
  const gate = gateConnections(server, overloaded, exempt, answer);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return { gate, port: address.port };
}

describe('gateConnections', () => {
  it('hands every connection to the HTTP server while not overloaded', async () => {
    const { gate, port } = await gated(() => false);
    expect(await get(port, '/api/user')).toMatchObject({ status: 200, body: 'served /api/user' });
    expect(gate.refused()).toBe(0);
  });

  it('answers a new connection 503 with Retry-After at once while overloaded, and closes it', async () => {
    const { gate, port } = await gated(() => true);
    const res = await get(port, '/api/user');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers.connection).toBe('close');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toBe('{"errors":["busy"]}');
    // Not left hanging: answered as soon as the request's first bytes arrived (room for a busy machine).
    expect(res.ms).toBeLessThan(1_000);
    expect(gate.refused()).toBe(1);
  });

  it('never refuses the probes: their connection is handed on with the bytes already read', async () => {
    const { gate, port } = await gated(() => true);
    expect(await get(port, '/healthz')).toMatchObject({ status: 200, body: 'served /healthz' });
    expect(gate.refused()).toBe(0);
  });

  it('closes a refused connection that never sends a request, after its grace', async () => {
    const { port } = await gated(() => true);
    const socket = connect(port, '127.0.0.1');
    const started = performance.now();
    await new Promise((resolve) => socket.on('close', resolve));
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('counts the connections accepted whose request the app has not read yet', async () => {
    const { gate, port } = await gated(() => false);
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.on('connect', resolve));
    for (let i = 0; i < 100 && gate.unread() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(gate.unread()).toBe(1);
    socket.write('GET /x HTTP/1.1\r\nhost: a\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    expect(gate.unread()).toBe(0);
    socket.destroy();
  });
});

describe('requestPath', () => {
  it("is the request line's path without its query", () => {
    expect(requestPath(Buffer.from('GET /readyz?x=1 HTTP/1.1\r\n'))).toBe('/readyz');
    expect(requestPath(Buffer.from('HEAD /healthz HTTP/1.1\r\n'))).toBe('/healthz');
    expect(requestPath(Buffer.from('\x16\x03\x01 not http'))).toBeUndefined();
  });
});
