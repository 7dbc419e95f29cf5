import { activationMessages } from '@pra/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import {
  activationCodeFor,
  addOrganization,
  assignBrm,
  auditActions,
  outbox,
} from '../../../test/support/world';
import { createCode, hashCode } from '../../identity/codes';
import { expectTooMany } from '../../../test/support/too-many';

const DECODE = '/api/user/activate/decode';
const ACTIVATE = '/api/user/activate/activate-with-password';
const REQUIREMENTS = '/api/user/auth/password-requirements';
const GOOD_PASSWORD = 'Tr1cky-Zebra-Lamp';

describe.each(testDatabaseKinds)('activation on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let serial = 0;

  async function anonymous(): Promise<TestClient> {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    return client;
  }
  /** A vendor registered by the admin: returns its email and activation code. */
  async function pendingVendor(given = 'Grace', family = 'Hopper') {
    serial += 1;
    const email = `vendor${serial}@acme.example`;
    const res = await admin.post('/api/user/new/submit', {
      firstName: given,
      lastName: family,
      email,
      org: 'Acme Imaging',
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    const account = await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return { email, account, code: await activationCodeFor(t, email) };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    const acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    const adminId = await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    await assignBrm(t, adminId, acme);
    admin = await signInAs(t, 'adminone');
  });
  beforeEach(async () => {
    await t.ctx.db.deleteFrom('rate_limits').execute();
  });
  afterAll(async () => t?.close());

  it('decodes a valid code, whatever its case and separators, to the account', async () => {
    const { code, account } = await pendingVendor();
    const client = await anonymous();
    for (const typed of [code, code.toLowerCase(), code.replace(/-/g, ' ')]) {
      const res = await client.post(DECODE, { claimCode: typed });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        isValid: true,
        account: {
          username: account.username,
          givenName: 'Grace',
          familyName: 'Hopper',
          email: account.email,
        },
      });
    }
  });

  it.each([
    ['an unknown code', 'ABCD-EFGH-JKMN-PQRS'],
    ['a malformed code', 'hello'],
  ])('refuses %s', async (_name, claimCode) => {
    const res = await (await anonymous()).post(DECODE, { claimCode });
    expect(res.json()).toEqual({ isValid: false, invalidReason: activationMessages.unknownCode });
  });

  it('refuses a reset code of the account as an activation code', async () => {
    const { account } = await pendingVendor();
    const resetCode = await t.ctx.db.transaction().execute((tx) =>
      createCode(tx, {
        pepper: t.ctx.session.secret,
        accountId: account.id,
        kind: 'reset',
        ttlSeconds: 600,
      }),
    );
    const res = await (await anonymous()).post(DECODE, { claimCode: resetCode });
    expect(res.json()).toEqual({ isValid: false, invalidReason: activationMessages.unknownCode });
  });

  it('refuses an expired code, and an earlier code once a new one was made', async () => {
    const { code, account } = await pendingVendor();
    const newer = await t.ctx.db.transaction().execute((tx) =>
      createCode(tx, {
        pepper: t.ctx.session.secret,
        accountId: account.id,
        kind: 'activation',
        ttlSeconds: 3600,
      }),
    );
    const client = await anonymous();
    expect((await client.post(DECODE, { claimCode: code })).json()).toEqual({
      isValid: false,
      invalidReason: activationMessages.expiredCode,
    });
    expect((await client.post(DECODE, { claimCode: newer })).json()).toMatchObject({ isValid: true });
    await t.ctx.db
      .updateTable('codes')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('code_hash', '=', hashCode(t.ctx.session.secret, newer))
      .execute();
    expect((await client.post(DECODE, { claimCode: newer })).json()).toEqual({
      isValid: false,
      invalidReason: activationMessages.expiredCode,
    });
    expect((await client.post(ACTIVATE, { claimCode: newer, newPassword: GOOD_PASSWORD })).statusCode).toBe(
      400,
    );
  });

  it('refuses the code of an account that is no longer pending', async () => {
    const { code, account } = await pendingVendor();
    await t.ctx.db.updateTable('accounts').set({ status: 'disabled' }).where('id', '=', account.id).execute();
    const client = await anonymous();
    expect((await client.post(DECODE, { claimCode: code })).json()).toEqual({
      isValid: false,
      invalidReason: activationMessages.notPending,
    });
    const res = await client.post(ACTIVATE, { claimCode: code, newPassword: GOOD_PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ errors: [activationMessages.notPending] });
  });

  it('shows personal blocked terms only to the browser that presented the code', async () => {
    const { code, account } = await pendingVendor('Linus', 'Torvalds');
    const client = await anonymous();
    const before = await client.get(`${REQUIREMENTS}?username=${account.username}`);
    expect(before.statusCode).toBe(200);
    expect(before.json().blockedTerms).toEqual([account.username, 'password', 'General Hospital']);
    await client.post(DECODE, { claimCode: code });
    const after = await client.get(`${REQUIREMENTS}?username=${account.username}`);
    expect(after.json()).toEqual({
      status: 'success',
      Password_Complexity: {
        maxRepeatChars: 2,
        minAlpha: 0,
        minLength: 12,
        minUpperAlpha: 1,
        minLowerAlpha: 1,
        minSpecialChars: 1,
        maxLength: 128,
        minCharTypes: 3,
        minNumeric: 1,
      },
      blockedTerms: [
        account.username,
        'Linus',
        'Torvalds',
        account.email.split('@')[0],
        'password',
        'General Hospital',
      ],
      rejectCommonPasswords: true,
    });
    expect((await client.get(`${REQUIREMENTS}?username=${'x'.repeat(300)}`)).statusCode).toBe(400);
    expect((await client.get(`${REQUIREMENTS}?username=a&b=c`)).statusCode).toBe(400);
  });

  it('refuses a password breaking the policy, listing every failed rule', async () => {
    const { code, account } = await pendingVendor('Linus', 'Torvalds');
    const client = await anonymous();
    const weak = await client.post(ACTIVATE, { claimCode: code, newPassword: 'aaab' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toEqual([
      'Min length: 12',
      'Min uppercase characters: 1',
      'Min number of symbols: 1',
      'Min amount of numbers: 1',
      'Max repeated characters: 2',
      'Min character types: 3',
    ]);
    const personal = await client.post(ACTIVATE, { claimCode: code, newPassword: 'Torvalds-Rules-1' });
    expect(personal.json()).toEqual({ errors: ['Contains blocked term: Torvalds'] });
    const common = await client.post(ACTIVATE, { claimCode: code, newPassword: 'P030710p$e4o' });
    expect(common.json()).toEqual({ errors: ['Not a commonly used password'] });
    const row = await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pendingActivation', password_hash: null });
  });

  it('activates once: password set, history, code used, mail and audit', async () => {
    const { code, account, email } = await pendingVendor();
    const client = await anonymous();
    const res = await client.post(ACTIVATE, { claimCode: code, newPassword: GOOD_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const row = await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const history = await t.ctx.db
      .selectFrom('password_history')
      .selectAll()
      .where('account_id', '=', account.id)
      .execute();
    expect(history).toHaveLength(1);
    expect((await outbox(t, email)).map((m) => m.template)).toContain('account-activated');
    expect((await auditActions(t, 'account.activate')).some((e) => e.target_id === account.id)).toBe(true);
    expect((await client.post(DECODE, { claimCode: code })).json()).toEqual({
      isValid: false,
      invalidReason: activationMessages.usedCode,
    });
    const again = await client.post(ACTIVATE, { claimCode: code, newPassword: GOOD_PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ errors: [activationMessages.usedCode] });
  });

  it('activates once when the same code is used twice at once (a real race on PostgreSQL)', async () => {
    const { code, account, email } = await pendingVendor();
    const [a, b] = [await anonymous(), await anonymous()];
    const results = await Promise.all([
      a.post(ACTIVATE, { claimCode: code, newPassword: GOOD_PASSWORD }),
      b.post(ACTIVATE, { claimCode: code, newPassword: 'Other-Zebra-Lamp-2' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(
      await t.ctx.db
        .selectFrom('password_history')
        .select('id')
        .where('account_id', '=', account.id)
        .execute(),
    ).toHaveLength(1);
    expect((await outbox(t, email)).filter((m) => m.template === 'account-activated')).toHaveLength(1);
  });

  it('stores only hashes of codes: the raw code appears in no table but the undelivered mail', async () => {
    const { code } = await pendingVendor();
    const normalized = code.replace(/-/g, '');
    for (const table of [
      'codes',
      'accounts',
      'requests',
      'request_items',
      'audit_events',
      'sessions',
      'rate_limits',
      'role_grants',
    ]) {
      const { rows } = await sql<{
        dump: string;
      }>`select coalesce(string_agg(t::text, ' '), '') as dump from ${sql.table(table)} t`.execute(t.ctx.db);
      expect(rows[0]!.dump).not.toContain(code);
      expect(rows[0]!.dump).not.toContain(normalized);
    }
  });

  it('limits code guessing per client address', async () => {
    const client = await anonymous();
    for (let i = 0; i < 20; i += 1) {
      expect((await client.post(DECODE, { claimCode: `WRONG-CODE-${i}` })).statusCode).toBe(200);
    }
    const res = await client.post(DECODE, { claimCode: 'ABCD-EFGH-JKMN-PQRS' });
    expectTooMany(res);
    expect(res.headers['retry-after']).toBeDefined();
    expect(
      (await client.post(ACTIVATE, { claimCode: 'ABCD-EFGH-JKMN-PQRS', newPassword: GOOD_PASSWORD }))
        .statusCode,
    ).toBe(429);
  });

  it.each([
    [DECODE, {}],
    [DECODE, { claimCode: 5 }],
    [DECODE, { claimCode: '' }],
    [DECODE, { claimCode: 'x'.repeat(100) }],
    [DECODE, { claimCode: 'ABCD', extra: true }],
    [ACTIVATE, { claimCode: 'ABCD' }],
    [ACTIVATE, { claimCode: 'ABCD', newPassword: 'x'.repeat(2000) }],
    [ACTIVATE, { claimCode: 'ABCD', newPassword: GOOD_PASSWORD, username: 'someone' }],
  ])('answers 400 to bad input on %s', async (url, body) => {
    const res = await (await anonymous()).post(url, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.length).toBeGreaterThan(0);
  });

  it('refuses calls without the CSRF token', async () => {
    const client = await anonymous();
    client.csrfToken = '';
    expect((await client.post(DECODE, { claimCode: 'ABCD' })).statusCode).toBe(403);
    expect((await client.post(ACTIVATE, { claimCode: 'ABCD', newPassword: GOOD_PASSWORD })).statusCode).toBe(
      403,
    );
  });
});

describe('activation while the identity service is in maintenance', () => {
  it('answers 503 to activate-with-password', async () => {
    const t = await createTestApp('pglite', { IIQ_MAINTENANCE: 'true' });
    try {
      const client = new TestClient(t.app);
      await client.fetchCsrf();
      const res = await client.post(ACTIVATE, {
        claimCode: 'ABCD-EFGH-JKMN-PQRS',
        newPassword: GOOD_PASSWORD,
      });
      expect(res.statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });
});
