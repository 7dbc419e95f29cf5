import { tokenMessages, TOKEN_MAX_DAYS, type TokenScope } from '@pra/contracts/service-tokens';
import * as admin from '@pra/contracts/endpoints/administration';
import { getPendingApprovals } from '@pra/contracts/endpoints/approvals';
import { getCurrentUser } from '@pra/contracts/endpoints/session';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../platform/clock';
import { messages } from '../../platform/app-error';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { callWithToken, createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { auditActions } from '../../../test/support/world';
import { logCapture } from '../../../test/support/log-capture';

const DAY_MS = 24 * 3600_000;
const TOKEN = /^pra_[A-Za-z0-9_-]{43}$/;

describe.each(testDatabaseKinds)('service tokens on %s', (kind) => {
  let t: TestApp;
  let theAdmin: TestClient;
  const clock = new TestClock(new Date('2026-06-01T08:00:00Z'));
  const logs = logCapture();
  /** Every token the tests made: none may ever reach the logs or the audit trail. */
  const issued: string[] = [];
  const ids = { admin: '', other: '', brm: '' };

  const inDays = (days: number) => new Date(clock.now().getTime() + days * DAY_MS).toISOString();

  async function create(
    client: TestClient,
    scopes: TokenScope[],
    options: { name?: string; expiresAt?: string } = {},
  ): Promise<{ id: string; token: string }> {
    const res = await client.call(admin.createServiceToken, {
      body: {
        name: options.name ?? `token ${issued.length + 1}`,
        scopes,
        expiresAt: options.expiresAt ?? inDays(30),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, token } = res.json();
    issued.push(token);
    return { id, token };
  }

  const tokenRow = (id: string) =>
    t.ctx.db.selectFrom('service_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(kind, { LOG_LEVEL: 'info' }, { logStream: logs.stream, clock });
    ids.admin = await createAccount(t, { username: 'tokenadmin', type: 'employee', isAdmin: true });
    ids.other = await createAccount(t, { username: 'otheradmin', type: 'employee', isAdmin: true });
    ids.brm = await createAccount(t, { username: 'tokenbrm', type: 'employee', isEmployeeBrm: true });
    await createAccount(t, { username: 'tokenvendor' });
    await createAccount(t, { username: 'tokenemployee', type: 'employee' });
    theAdmin = await signInAs(t, 'tokenadmin');
  });
  afterAll(async () => t?.close());

  it('makes a token shown once, stored as its SHA-256 only, listed without it, and audited by id and name', async () => {
    const { id, token } = await create(theAdmin, ['organizations:read', 'organizations:write'], {
      name: 'nightly HR sync',
    });
    expect(token).toMatch(TOKEN);
    const row = await tokenRow(id);
    expect(row.token_hash).not.toContain(token.slice(4));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row).toMatchObject({ name: 'nightly HR sync', created_by: 'tokenadmin', owner_id: ids.admin });
    const list = await theAdmin.call(admin.listServiceTokens);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(token);
    expect(list.json().tokens.find((x) => x.id === id)).toMatchObject({
      name: 'nightly HR sync',
      scopes: ['organizations:read', 'organizations:write'],
      createdBy: 'tokenadmin',
      owner: 'tokenadmin',
      lastUsedAt: null,
      revokedAt: null,
      status: 'active',
    });
    const [created] = (await auditActions(t, 'service-token.create')).filter((e) => e.details.tokenId === id);
    expect(created).toMatchObject({
      outcome: 'success',
      actor_username: 'tokenadmin',
      target_username: 'tokenadmin',
      details: {
        tokenId: id,
        tokenName: 'nightly HR sync',
        scopes: 'organizations:read organizations:write',
      },
    });
  });

  it('calls an admin endpoint with the token alone (no session, no CSRF token), as its admin, audited as the token', async () => {
    const { id, token } = await create(theAdmin, ['organizations:read', 'organizations:write'], {
      name: 'org sync',
    });
    const read = await callWithToken(t.app, admin.listOrganizations, token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.headers['set-cookie']).toBeUndefined();
    const made = await callWithToken(t.app, admin.createOrganization, token, {
      body: { name: 'Token Made Inc', domains: ['token-made.example'] },
    });
    expect(made.statusCode, made.body).toBe(200);
    const [event] = (await auditActions(t, 'organization.create')).filter(
      (e) => e.details.organization === 'Token Made Inc',
    );
    expect(event).toMatchObject({
      actor_id: ids.admin,
      actor_username: 'tokenadmin',
      details: { tokenId: id, tokenName: 'org sync' },
    });
    const uses = (await auditActions(t, 'service-token.use')).filter((e) => e.details.tokenId === id);
    expect(uses.map((e) => [e.outcome, e.actor_username, e.details.method, e.details.route])).toEqual(
      expect.arrayContaining([
        ['success', 'tokenadmin', 'GET', '/api/admin/organizations'],
        ['success', 'tokenadmin', 'POST', '/api/admin/organizations'],
      ]),
    );
    expect(uses).toHaveLength(2);
  });

  it('writes the last use at most once a minute', async () => {
    const { id, token } = await create(theAdmin, ['people:read']);
    expect((await callWithToken(t.app, admin.listPeople, token)).statusCode).toBe(200);
    const first = (await tokenRow(id)).last_used_at;
    expect(first?.toISOString()).toBe(clock.now().toISOString());
    clock.advance('PT30S');
    expect((await callWithToken(t.app, admin.listPeople, token)).statusCode).toBe(200);
    expect((await tokenRow(id)).last_used_at?.toISOString()).toBe(first?.toISOString());
    clock.advance('PT31S');
    expect((await callWithToken(t.app, admin.listPeople, token)).statusCode).toBe(200);
    expect((await tokenRow(id)).last_used_at?.toISOString()).toBe(clock.now().toISOString());
  });

  it('refuses a call outside the token’s scopes (403, insufficient_scope), and every session-only call, audited as denied', async () => {
    const { id, token } = await create(theAdmin, ['organizations:read'], { name: 'read only' });
    const write = await callWithToken(t.app, admin.createOrganization, token, {
      body: { name: 'Not Allowed Ltd', domains: [] },
    });
    expect([write.statusCode, write.json()]).toEqual([
      403,
      { errors: [tokenMessages.missingScope('organizations:write')] },
    ]);
    expect(write.headers['www-authenticate']).toBe(
      'Bearer realm="PRA Portal API", error="insufficient_scope", scope="organizations:write"',
    );
    // Sign-in, the current user, and the tokens themselves: never with a token.
    const sessionOnly = [
      () => callWithToken(t.app, getCurrentUser, token),
      () => callWithToken(t.app, admin.listServiceTokens, token),
      () =>
        callWithToken(t.app, admin.createServiceToken, token, {
          body: { name: 'more', scopes: ['organizations:read'], expiresAt: inDays(1) },
        }),
    ];
    for (const call of sessionOnly) {
      const res = await call();
      expect([res.statusCode, res.json()], res.raw.req.url).toEqual([
        403,
        { errors: [tokenMessages.notForTokens] },
      ]);
      expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
    }
    const csrf = await t.app.inject({
      method: 'GET',
      url: '/api/csrf',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.headers['set-cookie']).toBeUndefined();
    const denied = (await auditActions(t, 'service-token.refused')).filter((e) => e.details.tokenId === id);
    expect(denied.map((e) => [e.outcome, e.actor_username, e.details.reason])).toEqual(
      expect.arrayContaining([
        ['denied', 'tokenadmin', 'scope'],
        ['denied', 'tokenadmin', 'notForTokens'],
      ]),
    );
    expect(denied).toHaveLength(5);
    expect(await auditActions(t, 'organization.create')).not.toContainEqual(
      expect.objectContaining({ details: expect.objectContaining({ organization: 'Not Allowed Ltd' }) }),
    );
  });

  it('stops a revoked token at once (401 invalid_token, a clear message), audited as denied', async () => {
    const { id, token } = await create(theAdmin, ['audit:read'], { name: 'siem export' });
    expect((await callWithToken(t.app, admin.getAuditPage, token)).statusCode).toBe(200);
    const other = await signInAs(t, 'otheradmin');
    const revoked = await other.call(admin.revokeServiceToken, { params: { id } });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const again = await other.call(admin.revokeServiceToken, { params: { id } });
    expect([again.statusCode, again.json()]).toEqual([409, { errors: [tokenMessages.alreadyRevoked] }]);
    const res = await callWithToken(t.app, admin.getAuditPage, token);
    expect([res.statusCode, res.json()]).toEqual([401, { errors: [tokenMessages.revoked] }]);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="PRA Portal API", error="invalid_token"');
    expect(res.headers['content-type']).toContain('application/json');
    const [revocation] = (await auditActions(t, 'service-token.revoke')).filter(
      (e) => e.details.tokenId === id,
    );
    expect(revocation).toMatchObject({
      actor_username: 'otheradmin',
      target_username: 'tokenadmin',
      details: { tokenId: id, tokenName: 'siem export' },
    });
    const [refused] = (await auditActions(t, 'service-token.refused')).filter(
      (e) => e.details.tokenId === id,
    );
    expect(refused).toMatchObject({
      outcome: 'denied',
      actor_username: 'tokenadmin',
      details: { reason: 'revoked', method: 'GET', route: '/api/admin/audit', tokenName: 'siem export' },
    });
    const listed = (await theAdmin.call(admin.listServiceTokens)).json().tokens.find((x) => x.id === id);
    expect(listed).toMatchObject({ status: 'revoked', revokedBy: 'otheradmin' });
  });

  it('stops a token at its expiry (the app clock), and refuses made-up or malformed tokens the same way', async () => {
    const { id, token } = await create(theAdmin, ['people:read'], { expiresAt: inDays(1) });
    expect((await callWithToken(t.app, admin.listPeople, token)).statusCode).toBe(200);
    clock.advance('P1DT1S');
    const res = await callWithToken(t.app, admin.listPeople, token);
    expect([res.statusCode, res.json()]).toEqual([401, { errors: [tokenMessages.expired] }]);
    expect(
      (await theAdmin.call(admin.listServiceTokens)).json().tokens.find((x) => x.id === id)?.status,
    ).toBe('expired');
    for (const bad of ['pra_' + 'A'.repeat(43), 'not-a-token', '', token.slice(0, -1)]) {
      const refused = await callWithToken(t.app, admin.listPeople, bad);
      expect([refused.statusCode, refused.json()], bad).toEqual([401, { errors: [tokenMessages.invalid] }]);
      expect(refused.headers['www-authenticate']).toContain('error="invalid_token"');
    }
    const unknown = (await auditActions(t, 'service-token.refused')).filter(
      (e) => e.details.reason === 'invalid',
    );
    expect(unknown.length).toBeGreaterThanOrEqual(4);
    expect(unknown[0]).toMatchObject({ outcome: 'denied', actor_id: null });
  });

  it('stops the tokens of an admin who is disabled, and revokes them for good when the admin right is removed', async () => {
    const byOther = await signInAs(t, 'otheradmin');
    const { token } = await create(byOther, ['people:read'], { name: 'of other' });
    expect((await callWithToken(t.app, admin.listPeople, token)).statusCode).toBe(200);
    await t.ctx.db.updateTable('accounts').set({ status: 'disabled' }).where('id', '=', ids.other).execute();
    const res = await callWithToken(t.app, admin.listPeople, token);
    expect([res.statusCode, res.json()]).toEqual([401, { errors: [tokenMessages.ownerNotAdmin] }]);
    await t.ctx.db.updateTable('accounts').set({ status: 'active' }).where('id', '=', ids.other).execute();
    expect((await callWithToken(t.app, admin.listPeople, token)).statusCode).toBe(200);
    // The admin right removed: revoked, and it stays so when the right comes back.
    const removal = await theAdmin.call(admin.changePerson, {
      params: { id: ids.other },
      body: { isAdmin: false },
    });
    expect(removal.statusCode, removal.body).toBe(200);
    expect((await callWithToken(t.app, admin.listPeople, token)).statusCode).toBe(401);
    const restore = await theAdmin.call(admin.changePerson, {
      params: { id: ids.other },
      body: { isAdmin: true },
    });
    expect(restore.statusCode, restore.body).toBe(200);
    const after = await callWithToken(t.app, admin.listPeople, token);
    expect([after.statusCode, after.json()]).toEqual([401, { errors: [tokenMessages.revoked] }]);
    const automatic = (await auditActions(t, 'service-token.revoke')).filter(
      (e) => e.details.tokenName === 'of other',
    );
    expect(automatic).toMatchObject([
      { actor_username: 'tokenadmin', details: { reason: 'no longer an admin' } },
    ]);
  });

  it('refuses bad input to the creation with clear messages, writing nothing', async () => {
    const before = await t.ctx.db.selectFrom('service_tokens').select('id').execute();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', scopes: ['people:read'], expiresAt: inDays(1) }, `name: ${tokenMessages.nameRequired}`],
      [{ name: '   ', scopes: ['people:read'], expiresAt: inDays(1) }, `name: ${tokenMessages.nameRequired}`],
      [
        { name: 'x'.repeat(101), scopes: ['people:read'], expiresAt: inDays(1) },
        `name: ${tokenMessages.nameTooLong}`,
      ],
      [
        { name: 'a\u202Eb', scopes: ['people:read'], expiresAt: inDays(1) },
        `name: ${tokenMessages.nameCharacters}`,
      ],
      [{ name: 'ok', scopes: [], expiresAt: inDays(1) }, `scopes: ${tokenMessages.scopesRequired}`],
      [
        { name: 'ok', scopes: ['people:admin'], expiresAt: inDays(1) },
        `scopes.0: ${tokenMessages.unknownScope('people:admin')}`,
      ],
      [
        { name: 'ok', scopes: ['people:read', 'people:read'], expiresAt: inDays(1) },
        `scopes: ${tokenMessages.duplicateScope}`,
      ],
      [
        { name: 'ok', scopes: ['people:read'], expiresAt: 'tomorrow' },
        `expiresAt: ${tokenMessages.expiryFormat}`,
      ],
      [
        { name: 'ok', scopes: ['people:read'], expiresAt: inDays(-1) },
        `expiresAt: ${tokenMessages.expiryPast}`,
      ],
      [
        { name: 'ok', scopes: ['people:read'], expiresAt: inDays(TOKEN_MAX_DAYS + 1) },
        `expiresAt: ${tokenMessages.expiryTooFar}`,
      ],
      [
        { name: 'ok', scopes: ['vendors:terminate'], expiresAt: inDays(1) },
        `scopes: ${tokenMessages.terminateNeedsBrm('tokenadmin')}`,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: admin.createServiceToken.path,
        payload: body,
        headers: theAdmin.headers({ 'x-csrf-token': theAdmin.csrfToken }),
      });
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([400, { errors: [message] }]);
    }
    const unknownField = await t.app.inject({
      method: 'POST',
      url: admin.createServiceToken.path,
      payload: { name: 'ok', scopes: ['people:read'], expiresAt: inDays(1), token: 'pra_mine' },
      headers: theAdmin.headers({ 'x-csrf-token': theAdmin.csrfToken }),
    });
    expect(unknownField.statusCode).toBe(400);
    expect(await t.ctx.db.selectFrom('service_tokens').select('id').execute()).toEqual(before);
    expect(
      (
        await theAdmin.call(admin.revokeServiceToken, {
          params: { id: '00000000-0000-4000-8000-000000000000' },
        })
      ).json(),
    ).toEqual({
      errors: [tokenMessages.notFound],
    });
  });

  it('lets only admins manage tokens: every other caller is refused', async () => {
    const { id } = await create(theAdmin, ['people:read']);
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const body = { name: 'x', scopes: ['people:read' as const], expiresAt: inDays(1) };
    for (const name of ['tokenvendor', 'tokenemployee', 'tokenbrm', null]) {
      const client = name ? await signInAs(t, name) : anonymous;
      const status = name ? 403 : 401;
      expect((await client.call(admin.listServiceTokens)).statusCode, `${name}`).toBe(status);
      expect((await client.call(admin.createServiceToken, { body })).statusCode, `${name}`).toBe(status);
      expect((await client.call(admin.revokeServiceToken, { params: { id } })).statusCode, `${name}`).toBe(
        status,
      );
    }
    expect((await tokenRow(id)).revoked_at).toBeNull();
  });

  it('keeps every CSRF rule for a session: a cookie is never a way around it, and a bearer request ignores cookies', async () => {
    const { token } = await create(theAdmin, ['settings:read', 'settings:write']);
    const body = { maintenance: false };
    // The session without its CSRF token, or with a scheme that is not Bearer: refused.
    for (const headers of [
      theAdmin.headers(),
      theAdmin.headers({ authorization: 'Basic dXNlcjpwYXNz' }),
      theAdmin.headers({ 'x-csrf-token': 'wrong' }),
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: admin.setMaintenance.path,
        payload: body,
        headers,
      });
      expect([res.statusCode, res.json()]).toEqual([403, { errors: [messages.csrf] }]);
    }
    // A made-up bearer beside a good session: the cookie is not read, so the call is refused.
    const withCookie = await t.app.inject({
      method: 'PUT',
      url: admin.setMaintenance.path,
      payload: body,
      headers: theAdmin.headers({
        'x-csrf-token': theAdmin.csrfToken,
        authorization: `Bearer pra_${'B'.repeat(43)}`,
      }),
    });
    expect(withCookie.statusCode).toBe(401);
    // A good bearer with a vendor's cookie: it acts as the token's admin, never as the cookie's owner.
    const vendor = await signInAs(t, 'tokenvendor');
    const mixed = await t.app.inject({
      method: 'GET',
      url: admin.getMaintenance.path,
      headers: vendor.headers({ authorization: `Bearer ${token}` }),
    });
    expect(mixed.statusCode, mixed.body).toBe(200);
    const asVendor = await t.app.inject({
      method: 'GET',
      url: getPendingApprovals.path,
      headers: vendor.headers({ authorization: `Bearer ${token}` }),
    });
    expect(asVendor.statusCode).toBe(403);
  });

  it('never writes a token to the logs or the audit trail', async () => {
    expect(issued.length).toBeGreaterThan(5);
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .select(['details', 'actor_username', 'target_username'])
      .execute();
    const text = logs.text();
    expect(text).toContain('service-token.use'); // the capture did see the calls
    for (const token of issued) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice(4));
      expect(JSON.stringify(audit)).not.toContain(token.slice(4));
    }
  });

  it('answers 429 once one address has sent too many refused tokens, without auditing each', async () => {
    const refusedBefore = (await auditActions(t, 'service-token.refused')).length;
    let limited = 0;
    for (let i = 0; i < 32; i += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: admin.listPeople.path,
        headers: { authorization: `Bearer pra_${String(i).padStart(43, 'x')}` },
        remoteAddress: '192.0.2.77',
      });
      if (res.statusCode === 429) limited += 1;
      else expect(res.statusCode).toBe(401);
    }
    expect(limited).toBeGreaterThan(0);
    expect((await auditActions(t, 'service-token.refused')).length - refusedBefore).toBe(32 - limited);
  });
});
