import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDatabaseKinds } from '../../../test/support/databases';
import { spyOnQueries } from '../../../test/support/query-spy';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { hashSessionId } from '../../http/session';

const CSRF_MESSAGE = 'Your session is out of date. Reload the page and try again.';
const SIGN_IN_MESSAGE = 'You must be signed in to do this.';

async function addOrganization(t: TestApp, name: string, isActive = true): Promise<string> {
  const { id } = await t.ctx.db
    .insertInto('organizations')
    .values({ name, is_active: isActive })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The stored session row behind a client's cookie. */
async function sessionRow(t: TestApp, client: TestClient) {
  const rawId = client.cookie.slice(client.cookie.indexOf('=') + 1);
  return t.ctx.db
    .selectFrom('sessions')
    .selectAll()
    .where('id_hash', '=', hashSessionId(rawId))
    .executeTakeFirstOrThrow();
}

async function auditEvents(t: TestApp, action: string, username: string) {
  return t.ctx.db
    .selectFrom('audit_events')
    .selectAll()
    .where('action', '=', action)
    .where('target_username', '=', username)
    .orderBy('occurred_at')
    .execute();
}

describe.each(testDatabaseKinds)('GET /api/user on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(kind);
    const zeta = await addOrganization(t, 'Zeta Scanners');
    const acme = await addOrganization(t, 'Acme Imaging');
    const globex = await addOrganization(t, 'Globex Health IT');
    await addOrganization(t, 'Defunct Devices', false);
    ids.vendor = await createAccount(t, { username: 'vendorone' });
    ids.brm = await createAccount(t, { username: 'brmone', type: 'employee', isEmployeeBrm: true });
    ids.admin = await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    ids.plain = await createAccount(t, { username: 'plainemployee', type: 'employee' });
    ids.lonely = await createAccount(t, { username: 'lonelyvendor' });
    await t.ctx.db
      .updateTable('accounts')
      .set({ job_title: 'Field Service Engineer', manager: 'Pat Manager' })
      .where('id', '=', ids.vendor)
      .execute();
    await t.ctx.db
      .insertInto('role_grants')
      .values([
        { account_id: ids.vendor, organization_id: zeta },
        { account_id: ids.vendor, organization_id: acme },
      ])
      .execute();
    await t.ctx.db
      .insertInto('brm_assignments')
      .values([
        { account_id: ids.brm, organization_id: globex },
        { account_id: ids.brm, organization_id: zeta },
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  it('answers every field of the current-user record for a vendor, orgs being its held roles', async () => {
    const client = await signInAs(t, 'vendorone');
    const res = await client.get('/api/user');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      id: ids.vendor,
      username: 'vendorone',
      givenName: 'Vendorone',
      familyName: 'Tester',
      jobTitle: 'Field Service Engineer',
      isActive: true,
      email: 'vendorone@example.test',
      manager: 'Pat Manager',
      orgs: ['Acme Imaging', 'Zeta Scanners'],
      isEmployeeBrm: false,
      isAdmin: false,
      isAuditor: false,
      loginUrl: '/api/saml/login/standard',
      type: 'vendor',
      iiqAvailable: true,
    });
  });

  it('gives a vendor holding no role an empty orgs list', async () => {
    const client = await signInAs(t, 'lonelyvendor');
    const res = await client.get('/api/user');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: 'lonelyvendor', orgs: [], type: 'vendor' });
  });

  it('gives an employee BRM its managed organizations', async () => {
    const client = await signInAs(t, 'brmone');
    const res = await client.get('/api/user');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: ids.brm,
      username: 'brmone',
      givenName: 'Brmone',
      familyName: 'Tester',
      jobTitle: '',
      isActive: true,
      email: 'brmone@example.test',
      manager: '',
      orgs: ['Globex Health IT', 'Zeta Scanners'],
      isEmployeeBrm: true,
      isAdmin: false,
      isAuditor: false,
      loginUrl: '/api/saml/login/standard',
      type: 'employee',
      iiqAvailable: true,
    });
  });

  it('gives an admin every active organization', async () => {
    const client = await signInAs(t, 'adminone');
    const res = await client.get('/api/user');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: ids.admin,
      username: 'adminone',
      orgs: ['Acme Imaging', 'Globex Health IT', 'Zeta Scanners'],
      isEmployeeBrm: false,
      isAdmin: true,
      type: 'employee',
    });
  });

  it('gives an employee with neither flag no organizations and no BRM or admin flag', async () => {
    const client = await signInAs(t, 'plainemployee');
    const res = await client.get('/api/user');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ orgs: [], isEmployeeBrm: false, isAdmin: false, type: 'employee' });
  });

  it('answers 401 with the error envelope to an anonymous caller, with or without a session', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/api/user' });
    expect(bare.statusCode).toBe(401);
    expect(bare.json()).toEqual({ errors: [SIGN_IN_MESSAGE] });
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const res = await anonymous.get('/api/user');
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ errors: [SIGN_IN_MESSAGE] });
  });

  it('refuses the still-live session of an account disabled after it signed in', async () => {
    const id = await createAccount(t, { username: 'soondisabled' });
    const client = await signInAs(t, 'soondisabled');
    expect((await client.get('/api/user')).statusCode).toBe(200);
    await t.ctx.db.updateTable('accounts').set({ status: 'disabled' }).where('id', '=', id).execute();
    // The session row itself is untouched: the account's status alone must close the door.
    expect((await sessionRow(t, client)).revoked_at).toBeNull();
    const res = await client.get('/api/user');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: [SIGN_IN_MESSAGE] });
    // The authentication status agrees, so the web app offers a new sign-in instead of failing calls.
    expect((await client.get('/api/saml/is-authenticated')).json()).toEqual({ isAuthenticated: false });
  });

  it('costs one database round trip: session, account and organizations in one query', async () => {
    const client = await signInAs(t, 'brmone');
    const spy = spyOnQueries(kind);
    try {
      spy.mockClear();
      const res = await client.get('/api/user');
      expect(res.json()).toMatchObject({ orgs: ['Globex Health IT', 'Zeta Scanners'] });
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockClear();
      expect((await client.get('/api/saml/is-authenticated')).json()).toMatchObject({
        isAuthenticated: true,
      });
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockClear();
      expect((await t.app.inject({ method: 'GET', url: '/api/saml/is-authenticated' })).statusCode).toBe(200);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('serves concurrent callers from one batched lookup, each with its own session, none with a revoked one', async () => {
    const vendor = await signInAs(t, 'vendorone');
    const brm = await signInAs(t, 'brmone');
    const revoked = await signInAs(t, 'adminone');
    const rawId = revoked.cookie.slice(revoked.cookie.indexOf('=') + 1);
    await t.ctx.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('id_hash', '=', hashSessionId(rawId))
      .execute();
    const spy = spyOnQueries(kind);
    try {
      spy.mockClear();
      const [a, b, c, d] = await Promise.all([
        vendor.get('/api/user'),
        brm.get('/api/user'),
        revoked.get('/api/user'),
        vendor.get('/api/user'),
      ]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(a.json()).toMatchObject({ username: 'vendorone', orgs: ['Acme Imaging', 'Zeta Scanners'] });
      expect(b.json()).toMatchObject({ username: 'brmone', orgs: ['Globex Health IT', 'Zeta Scanners'] });
      expect(c.statusCode).toBe(401);
      expect(d.json()).toMatchObject({ username: 'vendorone' });
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps answering when a migration adds an account column after the lookup was prepared', async () => {
    const client = await signInAs(t, 'vendorone');
    // Several calls: PostgreSQL switches a prepared statement to its cached generic plan after five.
    for (let i = 0; i < 6; i++) expect((await client.get('/api/user')).statusCode).toBe(200);
    await sql`alter table accounts add column later_column integer`.execute(t.ctx.db);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await client.get('/api/user');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ username: 'vendorone' });
      }
    } finally {
      await sql`alter table accounts drop column later_column`.execute(t.ctx.db);
    }
  });

  it('says iiqAvailable false while the identity service is in maintenance', async () => {
    const maintenance = await createTestApp(kind, { IIQ_MAINTENANCE: 'true' });
    try {
      await createAccount(maintenance, { username: 'vendorone' });
      const client = await signInAs(maintenance, 'vendorone');
      const res = await client.get('/api/user');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ username: 'vendorone', iiqAvailable: false });
    } finally {
      await maintenance.close();
    }
  });
});

describe.each(testDatabaseKinds)('POST /api/user/extend-session on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SESSION_MAX_EXTENSIONS: '2', SESSION_LIFETIME_MINUTES: '30' });
    await createAccount(t, { username: 'extender' });
    await createAccount(t, { username: 'bystander' });
  });
  afterAll(async () => t?.close());

  /** Pulls the session's end 25 minutes closer, so an extension visibly moves it. */
  async function ageSession(client: TestClient) {
    const row = await sessionRow(t, client);
    await t.ctx.db
      .updateTable('sessions')
      .set({ expires_at: sql<Date>`now() + interval '5 minutes'` })
      .where('id_hash', '=', row.id_hash)
      .execute();
  }

  it('moves expires to now + the lifetime and uses one extension, until none is left', async () => {
    const client = await signInAs(t, 'extender');
    const status0 = (await client.get('/api/saml/is-authenticated')).json();
    expect(status0).toMatchObject({ isAuthenticated: true, remainingSessionExtentions: 2 });

    for (const remaining of [1, 0]) {
      await ageSession(client);
      const before = await sessionRow(t, client);
      const startedAt = Date.now();
      const cookieBefore = client.cookie;
      const res = await client.post('/api/user/extend-session', undefined);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const after = await sessionRow(t, client);
      // The same session id comes back with the new end, so the browser keeps it that long.
      expect(client.cookie).toBe(cookieBefore);
      const cookieExpires = /Expires=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] ?? '';
      expect(Math.abs(Date.parse(cookieExpires) - new Date(after.expires_at).getTime())).toBeLessThan(1000);
      expect(after.extensions_used).toBe(before.extensions_used + 1);
      const expires = new Date(after.expires_at).getTime();
      expect(expires).toBeGreaterThan(new Date(before.expires_at).getTime() + 20 * 60_000);
      expect(Math.abs(expires - (startedAt + 30 * 60_000))).toBeLessThan(10_000);
      const status = (await client.get('/api/saml/is-authenticated')).json();
      expect(status).toEqual({
        isAuthenticated: true,
        expires: new Date(after.expires_at).toISOString(),
        remainingSessionExtentions: remaining,
      });
    }

    // No extension left: success false, and the row stays exactly as it was.
    await ageSession(client);
    const before = await sessionRow(t, client);
    const res = await client.post('/api/user/extend-session', undefined);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionRow(t, client)).toEqual(before);
    expect((await client.get('/api/saml/is-authenticated')).json()).toMatchObject({
      remainingSessionExtentions: 0,
    });

    const events = await auditEvents(t, 'session.extend', 'extender');
    expect(events.map((e) => [e.outcome, e.details])).toEqual([
      ['success', { extensionsUsed: 1 }],
      ['success', { extensionsUsed: 2 }],
      ['failure', { extensionsUsed: 2 }],
    ]);
    expect(events.every((e) => e.actor_username === 'extender')).toBe(true);
  });

  it('answers 401 to an anonymous session that carries a valid CSRF token', async () => {
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const res = await anonymous.post('/api/user/extend-session', undefined);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: [SIGN_IN_MESSAGE] });
  });

  it('answers 401 to a caller with no session at all, before the CSRF check', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/extend-session',
      headers: { 'x-pra-api-call': 'true' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: [SIGN_IN_MESSAGE] });
  });

  describe('refuses a forged or foreign call with 403 and changes nothing', () => {
    let victim: TestClient;
    let other: TestClient;
    beforeAll(async () => {
      victim = await signInAs(t, 'bystander');
      other = await signInAs(t, 'extender');
    });

    const cases: [string, () => Record<string, string>][] = [
      ['without x-csrf-token', () => ({ 'x-pra-api-call': 'true', cookie: victim.cookie })],
      [
        'with an empty x-csrf-token',
        () => ({ 'x-pra-api-call': 'true', cookie: victim.cookie, 'x-csrf-token': '' }),
      ],
      [
        "with another session's token",
        () => ({ 'x-pra-api-call': 'true', cookie: victim.cookie, 'x-csrf-token': other.csrfToken }),
      ],
      ['without x-pra-api-call', () => ({ cookie: victim.cookie, 'x-csrf-token': victim.csrfToken })],
      [
        'with x-pra-api-call other than true',
        () => ({ 'x-pra-api-call': '1', cookie: victim.cookie, 'x-csrf-token': victim.csrfToken }),
      ],
    ];

    it.each(cases)('%s', async (_name, headers) => {
      const before = await sessionRow(t, victim);
      const eventsBefore = await auditEvents(t, 'session.extend', 'bystander');
      const res = await t.app.inject({ method: 'POST', url: '/api/user/extend-session', headers: headers() });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errors: [CSRF_MESSAGE] });
      expect(await sessionRow(t, victim)).toEqual(before);
      expect(await auditEvents(t, 'session.extend', 'bystander')).toEqual(eventsBefore);
    });

    it('and then accepts the same call with the right headers', async () => {
      const before = await sessionRow(t, victim);
      const res = await victim.post('/api/user/extend-session', undefined);
      expect(res.json()).toEqual({ success: true });
      expect((await sessionRow(t, victim)).extensions_used).toBe(before.extensions_used + 1);
    });
  });
});
