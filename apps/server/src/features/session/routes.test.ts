import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/databases';

describe.each(testDatabaseKinds)('csrf and anonymous status on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('gives a CSRF token bound to a new HttpOnly session cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/csrf' });
    expect(res.statusCode).toBe(200);
    const token = res.json<{ csrfToken: string }>().csrfToken;
    expect(token.length).toBeGreaterThanOrEqual(40);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keeps the same token for the same session and a different one for another', async () => {
    const a = new TestClient(t.app);
    const first = await a.fetchCsrf();
    expect(await a.fetchCsrf()).toBe(first);
    const b = new TestClient(t.app);
    expect(await b.fetchCsrf()).not.toBe(first);
  });

  it('stores only a hash of the session id', async () => {
    const a = new TestClient(t.app);
    await a.fetchCsrf();
    const rawId = a.cookie.split('=')[1] ?? '';
    const rows = await t.ctx.db.selectFrom('sessions').select('id_hash').execute();
    expect(rows.some((row) => row.id_hash === rawId)).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('uses the __Host- prefix and Secure when the portal is served over https', async () => {
    const secure = await createTestApp(kind, { PUBLIC_URL: 'https://pra.hospital.example' });
    try {
      const res = await secure.app.inject({ method: 'GET', url: '/api/csrf' });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^__Host-pra_session=/);
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Domain=/);
    } finally {
      await secure.close();
    }
  });

  it('answers isAuthenticated false for anonymous callers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/saml/is-authenticated' });
    expect(res.json()).toEqual({ isAuthenticated: false });
  });

  it('ignores an unknown or malformed session cookie', async () => {
    for (const cookie of ['pra_session=nonsense', `pra_session=${'a'.repeat(43)}`, 'pra_session=']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/saml/is-authenticated',
        headers: { cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ isAuthenticated: false });
    }
  });
});

describe('anonymous sessions', () => {
  it('are limited per client address', async () => {
    const t = await createTestApp('pglite');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 302; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/api/csrf', remoteAddress: '198.51.100.7' });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 300).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(300)).toEqual([429, 429]);
      const other = await t.app.inject({ method: 'GET', url: '/api/csrf', remoteAddress: '198.51.100.8' });
      expect(other.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
