import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { messages } from '../platform/app-error';
import { listenWhileStarting, type StartingListener } from './starting-listener';

describe('the listener while the portal starts', () => {
  let listener: StartingListener | null = null;
  afterEach(async () => {
    await listener?.close();
    listener = null;
  });

  async function starting() {
    listener = await listenWhileStarting(0, '127.0.0.1');
    const { port } = listener.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

  it('says alive and not ready on the probes', async () => {
    const base = await starting();
    const alive = await fetch(`${base}/healthz`);
    expect([alive.status, await alive.text()]).toEqual([200, 'ok\n']);
    const ready = await fetch(`${base}/readyz`, { headers: browser });
    expect([ready.status, await ready.text()]).toEqual([503, 'not ready\n']);
  });

  it('answers a browser asking for a page with a page saying so', async () => {
    const base = await starting();
    for (const path of ['/home', '/', '/brm/manage-users?page=2']) {
      const res = await fetch(`${base}${path}`, { headers: browser });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      const page = await res.text();
      expect(page).toContain(`<p role="status">${messages.unavailable}</p>`);
      expect(page).not.toContain('http-equiv="refresh"');
      expect(page).toContain('<html lang="en">');
      expect(page).not.toMatch(/<script|<link|<img|style=/i);
    }
    const head = await fetch(`${base}/home`, { method: 'HEAD', headers: browser });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
      503,
      'text/html; charset=utf-8',
      '',
    ]);
  });

  it('answers API calls, other methods and callers that do not ask for HTML with the error envelope', async () => {
    const base = await starting();
    const calls: Array<[string, RequestInit]> = [
      ['/api/user', { headers: browser }],
      ['/api', { headers: browser }],
      ['/home', { method: 'POST', headers: browser, body: 'x=1' }],
      ['/home', { headers: { accept: 'application/json' } }],
      ['/home', { headers: { accept: '*/*' } }],
      ['/home', { headers: { accept: 'text/htmlx' } }],
      ['/home', {}],
    ];
    for (const [path, init] of calls) {
      const res = await fetch(`${base}${path}`, init);
      expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({ errors: [messages.unavailable] });
    }
  });

  it('hands every request to the app once it is opened', async () => {
    const base = await starting();
    listener!.adopt((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('the app\n');
    });
    expect((await fetch(`${base}/home`, { headers: browser })).status).toBe(503);
    listener!.open();
    const res = await fetch(`${base}/home`, { headers: browser });
    expect([res.status, await res.text()]).toEqual([200, 'the app\n']);
  });
});
