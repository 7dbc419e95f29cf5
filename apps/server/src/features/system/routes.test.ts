import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { expectTooMany } from '../../../test/support/too-many';

describe.each(testDatabaseKinds)('public system calls on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { CLIENT_LOG_PER_MINUTE: '3' });
  });
  afterAll(async () => t?.close());

  it('answers the system message, disabled by default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/system/message' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      enabled: false,
      loggedInOnly: false,
      severity: 'info',
      title: '',
      text: '',
    });
  });

  it('shows an enabled message to anonymous callers, but hides a signed-in-only one', async () => {
    await t.ctx.db
      .updateTable('system_message')
      .set({ enabled: true, severity: 'warning', title: 'Maintenance', text: 'Tonight 22:00' })
      .execute();
    let res = await t.app.inject({ method: 'GET', url: '/api/system/message' });
    expect(res.json()).toMatchObject({ enabled: true, title: 'Maintenance', severity: 'warning' });
    await t.ctx.db.updateTable('system_message').set({ logged_in_only: true }).execute();
    res = await t.app.inject({ method: 'GET', url: '/api/system/message' });
    expect(res.json()).toMatchObject({ enabled: false });
    await t.ctx.db.updateTable('system_message').set({ enabled: false, logged_in_only: false }).execute();
  });

  it('tells anonymous callers and non-admins only up or down', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/service_check' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('status: OK\n');
    await createAccount(t, { username: 'plainvendor' });
    const vendor = await signInAs(t, 'plainvendor');
    expect((await vendor.get('/api/service_check')).body).toBe('status: OK\n');
  });

  it('reports the state of database and mail to a signed-in administrator', async () => {
    await createAccount(t, { username: 'checkadmin', type: 'employee', isAdmin: true });
    const admin = await signInAs(t, 'checkadmin');
    const res = await admin.get('/api/service_check');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^status: OK\n/);
    expect(res.body).toContain('database: up');
    expect(res.body).toContain('mail: test mailer');
    expect(res.body).toContain('mail undeliverable (refused by the relay): 0');
    // The version only for administrators (anonymous callers get the one status line above).
    const { version } = JSON.parse(
      readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    expect(res.body).toContain(`version: ${version} (Node.js ${process.version})\n`);
  });

  it('serves the example CSV of emails', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/example.csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(
      res.body
        .trim()
        .split(/\s+/)
        .every((line) => line.includes('@')),
    ).toBe(true);
  });

  describe('client-log', () => {
    it('accepts a failure report without a CSRF token', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/client-log',
        payload: { errorMessage: 'Network Error GET /api/user' },
        headers: { 'x-forwarded-for': '10.0.0.1' },
      });
      expect(res.statusCode).toBe(204);
    });

    it('refuses an oversized message with 413 or 400', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/client-log',
        payload: { errorMessage: 'x'.repeat(50_000) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ errors: ['The request is too large.'] });
    });

    it('refuses a message over the length cap that fits the body limit', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/client-log',
        payload: { errorMessage: 'x'.repeat(2001) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toMatch(/errorMessage/);
    });

    it('refuses junk JSON, wrong content type, extra and missing fields with 4xx envelopes', async () => {
      const cases = [
        { payload: '{"errorMessage":', headers: { 'content-type': 'application/json' }, status: 400 },
        {
          payload: 'errorMessage=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          status: 415,
        },
        { payload: '<x/>', headers: { 'content-type': 'application/xml' }, status: 415 },
        { payload: 'plain words', headers: { 'content-type': 'text/plain' }, status: 400 },
        {
          payload: JSON.stringify({ errorMessage: 'x', extra: 1 }),
          headers: { 'content-type': 'application/json' },
          status: 400,
        },
        { payload: JSON.stringify({}), headers: { 'content-type': 'application/json' }, status: 400 },
        {
          payload: JSON.stringify({ errorMessage: 42 }),
          headers: { 'content-type': 'application/json' },
          status: 400,
        },
        { payload: '', headers: { 'content-type': 'application/json' }, status: 400 },
      ];
      for (const c of cases) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/client-log',
          payload: c.payload,
          headers: c.headers,
        });
        expect(res.statusCode, JSON.stringify(c)).toBe(c.status);
        expect(res.json().errors.length, JSON.stringify(c)).toBeGreaterThan(0);
      }
    });

    it('is rate-limited per client address with a shared counter', async () => {
      await sql`delete from rate_limits`.execute(t.ctx.db);
      const send = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/client-log',
          payload: { errorMessage: 'again' },
          remoteAddress: '203.0.113.9',
        });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await send()).statusCode);
      expect(statuses).toEqual([204, 204, 204, 429, 429]);
      const limited = await send();
      expectTooMany(limited);
    });
  });
});
