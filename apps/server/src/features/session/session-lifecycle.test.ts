import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDatabaseKinds } from '../../../test/support/databases';
import { forgeResponse } from '../../../test/support/saml-forge';
import { createAccount, signInAs, startLogin, validResponseOptions } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import * as sessions from '../../store/sessions';
import { hashSessionId } from '../../http/session';

const SIGN_IN_MESSAGE = 'You must be signed in to do this.';
const CSRF_MESSAGE = 'Your session is out of date. Reload the page and try again.';

function rawId(cookie: string): string {
  return cookie.slice(cookie.indexOf('=') + 1);
}

async function sessionRow(t: TestApp, cookie: string) {
  return t.ctx.db
    .selectFrom('sessions')
    .selectAll()
    .where('id_hash', '=', hashSessionId(rawId(cookie)))
    .executeTakeFirstOrThrow();
}

/** What a caller holding only this cookie is, as the browser would see it. */
async function seenAs(t: TestApp, cookie: string) {
  const status = await t.app.inject({
    method: 'GET',
    url: '/api/saml/is-authenticated',
    headers: { cookie },
  });
  const user = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
  return {
    status: status.json<Record<string, unknown>>(),
    userStatus: user.statusCode,
    user: user.json<Record<string, unknown>>(),
  };
}

async function expectAnonymous(t: TestApp, cookie: string) {
  const seen = await seenAs(t, cookie);
  expect(seen.status).toEqual({ isAuthenticated: false });
  expect(seen.userStatus).toBe(401);
  expect(seen.user).toEqual({ errors: [SIGN_IN_MESSAGE] });
}

describe.each(testDatabaseKinds)('session lifecycle on %s', (kind) => {
  let t: TestApp;
  const ids = { vendor: '', other: '' };
  beforeAll(async () => {
    t = await createTestApp(kind);
    ids.vendor = await createAccount(t, { username: 'vendorone' });
    ids.other = await createAccount(t, { username: 'vendortwo' });
  });
  afterAll(async () => t?.close());

  it('replaces a session planted before sign-in and revokes the planted row', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const planted = client.cookie;
    expect((await sessionRow(t, planted)).revoked_at).toBeNull();
    await signInAs(t, 'vendorone', client);
    expect(client.cookie).not.toBe(planted);
    const plantedRow = await sessionRow(t, planted);
    expect(plantedRow.revoked_at).toBeInstanceOf(Date);
    expect(plantedRow.account_id).toBeNull();
    const fresh = await sessionRow(t, client.cookie);
    expect(fresh.account_id).toBe(ids.vendor);
    expect(fresh.revoked_at).toBeNull();
    await expectAnonymous(t, planted);
    expect((await seenAs(t, client.cookie)).user).toMatchObject({ username: 'vendorone' });
  });

  it('rotates the CSRF token at sign-in and refuses the old one afterwards', async () => {
    const client = new TestClient(t.app);
    const before = await client.fetchCsrf();
    await signInAs(t, 'vendorone', client);
    const after = client.csrfToken;
    expect(after).not.toBe(before);
    const sessionBefore = await sessionRow(t, client.cookie);
    const stale = await client.post('/api/user/extend-session', undefined, { 'x-csrf-token': before });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual({ errors: [CSRF_MESSAGE] });
    expect(await sessionRow(t, client.cookie)).toEqual(sessionBefore);
    const ok = await client.post('/api/user/extend-session', undefined);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
  });

  it('logs out: answers {} for the built-in IdP, clears the cookie and ends the session', async () => {
    const client = await signInAs(t, 'vendorone');
    const cookie = client.cookie;
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/saml/logout',
      headers: { cookie, 'x-pra-api-call': 'true' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^pra_session=;/);
    expect(setCookie).toMatch(/Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
    expect(setCookie).toMatch(/Path=\//);
    expect((await sessionRow(t, cookie)).revoked_at).toBeInstanceOf(Date);
    await expectAnonymous(t, cookie);
    const events = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'signout')
      .where('target_id', '=', ids.vendor)
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ outcome: 'success', actor_username: 'vendorone' });
  });

  it('answers {} to a logout without any session', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/saml/logout',
      headers: { 'x-pra-api-call': 'true' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
  });

  it('refuses a logout without the x-pra-api-call header and keeps the session', async () => {
    const client = await signInAs(t, 'vendorone');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/saml/logout',
      headers: { cookie: client.cookie },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: ['You are not allowed to do this.'] });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await sessionRow(t, client.cookie)).revoked_at).toBeNull();
    const seen = await seenAs(t, client.cookie);
    expect(seen.status).toMatchObject({ isAuthenticated: true });
    expect(seen.userStatus).toBe(200);
  });

  it('treats a session past its expires_at as anonymous', async () => {
    const client = await signInAs(t, 'vendorone');
    expect((await seenAs(t, client.cookie)).userStatus).toBe(200);
    await t.ctx.db
      .updateTable('sessions')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id_hash', '=', hashSessionId(rawId(client.cookie)))
      .execute();
    await expectAnonymous(t, client.cookie);
    // Expired means signed out: state-changing calls are refused too.
    const res = await client.post('/api/user/extend-session', undefined);
    expect(res.statusCode).toBe(401);
  });

  it('ends every session of an account revoked with sessions.revokeAllOf, and only those', async () => {
    const first = await signInAs(t, 'vendortwo');
    const second = await signInAs(t, 'vendortwo');
    const bystander = await signInAs(t, 'vendorone');
    await sessions.revokeAllOf(t.ctx.db, ids.other);
    await expectAnonymous(t, first.cookie);
    await expectAnonymous(t, second.cookie);
    expect((await seenAs(t, bystander.cookie)).user).toMatchObject({ username: 'vendorone' });
    const live = await t.ctx.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('account_id', '=', ids.other)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });
});

describe.each(testDatabaseKinds)('session lifetime setting on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SESSION_LIFETIME_MINUTES: '7', SESSION_MAX_EXTENSIONS: '5' });
    await createAccount(t, { username: 'vendorone' });
  });
  afterAll(async () => t?.close());

  it('ends a new session SESSION_LIFETIME_MINUTES after sign-in, and says so in expires and the cookie', async () => {
    const startedAt = Date.now();
    const client = new TestClient(t.app);
    const requestId = await startLogin(t, client);
    const acs = await client.postForm('/api/saml/acs', {
      SAMLResponse: forgeResponse(validResponseOptions(t, 'vendorone', requestId)),
    });
    expect(acs.statusCode).toBe(303);
    const cookieExpires = /Expires=([^;]+)/.exec(String(acs.headers['set-cookie']))?.[1];
    const status = (await client.get('/api/saml/is-authenticated')).json<{ expires: string }>();
    expect(status).toMatchObject({ isAuthenticated: true, remainingSessionExtentions: 5 });
    const expires = Date.parse(status.expires);
    expect(expires).toBeGreaterThanOrEqual(startedAt + 7 * 60_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * 60_000 + 1000);
    const row = await sessionRow(t, client.cookie);
    expect(new Date(row.expires_at).toISOString()).toBe(status.expires);
    // The cookie dies with the session (HTTP dates have whole seconds).
    expect(Math.abs(Date.parse(cookieExpires ?? '') - expires)).toBeLessThan(1000);
  });

  it('extends by the same lifetime', async () => {
    const client = await signInAs(t, 'vendorone');
    const startedAt = Date.now();
    const res = await client.post('/api/user/extend-session', undefined);
    expect(res.json()).toEqual({ success: true });
    const status = (await client.get('/api/saml/is-authenticated')).json<{ expires: string }>();
    expect(Math.abs(Date.parse(status.expires) - (startedAt + 7 * 60_000))).toBeLessThan(10_000);
    expect(status).toMatchObject({ remainingSessionExtentions: 4 });
  });
});
