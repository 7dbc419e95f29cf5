import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signInAs } from './support/sign-in';
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
    expect(csp).toContain("base-uri 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('never signs out on HEAD /api/saml/logout (no automatic HEAD route runs the handler)', async () => {
    await createAccount(t, { username: 'headvictim' });
    const client = await signInAs(t, 'headvictim');
    const head = await t.app.inject({ method: 'HEAD', url: '/api/saml/logout', headers: client.headers() });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('GET');
    expect(head.headers['set-cookie']).toBeUndefined();
    expect((await client.get('/api/saml/is-authenticated')).json()).toMatchObject({ isAuthenticated: true });
  });

  it('sends every header helmet sent, with the same values, on API, page and 404 answers', async () => {
    const expected = {
      'content-security-policy':
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    for (const url of ['/api/saml/is-authenticated', '/idp/login', '/api/nothing', '/%E0%A4%A']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers, url).toMatchObject(expected);
    }
    const https = await createTestApp('pglite', { PUBLIC_URL: 'https://portal.example' });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/saml/is-authenticated' });
      expect(res.headers['content-security-policy']).toBe(
        `${expected['content-security-policy']};upgrade-insecure-requests`,
      );
    } finally {
      await https.close();
    }
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

  it("refuses a state-changing call without the CSRF token, with another session's, or a malformed one", async () => {
    await createAccount(t, { username: 'csrfvictim' });
    const a = await signInAs(t, 'csrfvictim');
    const b = new TestClient(t.app);
    await b.fetchCsrf();
    const extend = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/user/extend-session', headers, payload: {} });
    const refused = { errors: ['Your session is out of date. Reload the page and try again.'] };
    const attempts = [
      a.headers(),
      a.headers({ 'x-csrf-token': b.csrfToken }),
      { cookie: a.cookie, 'x-csrf-token': a.csrfToken },
      // Same length in characters, longer in bytes: must be a refusal, not a crash.
      a.headers({ 'x-csrf-token': 'é'.repeat(a.csrfToken.length) }),
    ];
    for (const headers of attempts) {
      const res = await extend(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(refused);
    }
    const row = await t.ctx.db
      .selectFrom('sessions')
      .select('extensions_used')
      .where('account_id', 'is not', null)
      .execute();
    expect(row.every((r) => r.extensions_used === 0)).toBe(true);
    expect((await extend(a.headers({ 'x-csrf-token': a.csrfToken }))).json()).toEqual({ success: true });
  });

  it('decides by the routed path: an encoded /api path gets the same CSRF check and no-store', async () => {
    await createAccount(t, { username: 'encodedpath' });
    const client = await signInAs(t, 'encodedpath');
    // Signed in, without the CSRF token header.
    const post = await t.app.inject({
      method: 'POST',
      url: '/%61pi/user/extend-session',
      headers: client.headers(),
      payload: {},
    });
    expect(post.statusCode).toBe(403);
    const get = await t.app.inject({ method: 'GET', url: '/%61pi/saml/is-authenticated' });
    expect(get.statusCode).toBe(200);
    expect(get.headers['cache-control']).toBe('no-store');
  });

  it('answers a malformed URL with the error envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: ['Bad request'] });
  });
});

describe('behind a proxy', () => {
  it('takes the client address from the trusted hop only', async () => {
    const t = await createTestApp('pglite', { TRUST_PROXY: '1', CLIENT_LOG_PER_MINUTE: '1' });
    try {
      // The load balancer appends the real address; whatever the client wrote before it is ignored.
      const send = (forwarded: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/client-log',
          payload: { errorMessage: 'x' },
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-for': forwarded },
        });
      expect((await send('1.1.1.1, 203.0.113.5')).statusCode).toBe(204);
      expect((await send('2.2.2.2, 203.0.113.5')).statusCode).toBe(429);
      expect((await send('203.0.113.6')).statusCode).toBe(204);
    } finally {
      await t.close();
    }
  });
});
