import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from './support/test-app';

describe('headers and fallbacks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => t?.close());

  it('sends a strict CSP and the other security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/saml/is-authenticated' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('answers unknown API paths with a 404 envelope', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({
        method,
        url: '/api/does-not-exist',
        headers: client.headers({ 'x-csrf-token': client.csrfToken }),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['Not found'] });
    }
  });

  it("refuses a state-changing call without the CSRF token, and with another session's token", async () => {
    const a = new TestClient(t.app);
    await a.fetchCsrf();
    const b = new TestClient(t.app);
    await b.fetchCsrf();
    const withoutToken = await t.app.inject({
      method: 'POST',
      url: '/api/does-not-matter',
      headers: a.headers(),
      payload: {},
    });
    expect(withoutToken.statusCode).toBe(403);
    const crossed = await t.app.inject({
      method: 'POST',
      url: '/api/does-not-matter',
      headers: a.headers({ 'x-csrf-token': b.csrfToken }),
      payload: {},
    });
    expect(crossed.statusCode).toBe(403);
    const missingHeader = await t.app.inject({
      method: 'POST',
      url: '/api/does-not-matter',
      headers: { cookie: a.cookie, 'x-csrf-token': a.csrfToken },
      payload: {},
    });
    expect(missingHeader.statusCode).toBe(403);
    expect(missingHeader.json()).toEqual({
      errors: ['Your session is out of date. Reload the page and try again.'],
    });
  });
});
