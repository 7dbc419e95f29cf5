import { profileMessages } from '@pra/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../identity/passwords';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs, TEST_PASSWORD } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { auditActions, outbox } from '../../../test/support/world';
import { expectTooMany } from '../../../test/support/too-many';

const AUTH = '/api/user/auth';
const CHANGE = '/api/user/auth/change-password';
const NEW_PASSWORD = 'Quiet-Harbor-47-Lantern';

describe.each(testDatabaseKinds)('profile password change on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  const confirm = (client: TestClient, username: string, password = TEST_PASSWORD) =>
    client.get(AUTH, { username, password });
  const hashOf = async (id: string) =>
    (
      await t.ctx.db
        .selectFrom('accounts')
        .select('password_hash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).password_hash!;
  const stillOld = async (id: string) => verifyPassword(await hashOf(id), TEST_PASSWORD);

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const name of ['vendorone', 'vendortwo', 'vendorthree', 'vendorlock', 'vendorold']) {
      ids[name] = await createAccount(t, { username: name });
    }
    ids.brm = await createAccount(t, { username: 'brmone', type: 'employee', isEmployeeBrm: true });
    ids.admin = await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
  });
  beforeEach(async () => {
    await t.ctx.db.deleteFrom('rate_limits').execute();
  });
  afterAll(async () => t?.close());

  it('confirms the current password, then changes it once: mail, audit, other sessions ended, this one kept', async () => {
    const client = await signInAs(t, 'vendorone');
    const other = await signInAs(t, 'vendorone');
    const res = await confirm(client, 'vendorone');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ authentication: 'success' });
    const changed = await client.post(CHANGE, { newPassword: NEW_PASSWORD });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ success: true });
    expect(await verifyPassword(await hashOf(ids.vendorone!), NEW_PASSWORD)).toBe(true);
    expect((await client.get('/api/user')).statusCode).toBe(200);
    expect((await other.get('/api/user')).statusCode).toBe(401);
    const mails = await outbox(t, 'vendorone@example.test');
    expect(mails.map((m) => m.template)).toContain('password-changed');
    expect((await auditActions(t, 'password.change')).filter((e) => e.outcome === 'success')).toHaveLength(1);
    // The mark is used up by the change.
    const again = await client.post(CHANGE, { newPassword: 'Another-Quiet-58-Harbor' });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ errors: [profileMessages.reauthenticationRequired] });
  });

  it('answers authenticationFailure to a wrong current password and leaves the session unmarked', async () => {
    const client = await signInAs(t, 'vendortwo');
    const res = await confirm(client, 'vendortwo', 'not-the-password');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ authentication: 'authenticationFailure' });
    const change = await client.post(CHANGE, { newPassword: NEW_PASSWORD });
    expect(change.statusCode).toBe(403);
    expect(await stillOld(ids.vendortwo!)).toBe(true);
  });

  it('refuses a change without the mark, with an expired mark, or after confirming another username', async () => {
    const client = await signInAs(t, 'vendorthree');
    const without = await client.post(CHANGE, { newPassword: NEW_PASSWORD });
    expect(without.statusCode).toBe(403);

    const other = await confirm(client, 'vendorone', TEST_PASSWORD);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ errors: [profileMessages.otherAccount] });
    expect((await client.post(CHANGE, { newPassword: NEW_PASSWORD })).statusCode).toBe(403);

    expect((await confirm(client, 'vendorthree')).json()).toEqual({ authentication: 'success' });
    await t.ctx.db
      .updateTable('sessions')
      .set({ reauthenticated_until: new Date(Date.now() - 1000) })
      .where('account_id', '=', ids.vendorthree!)
      .execute();
    const expired = await client.post(CHANGE, { newPassword: NEW_PASSWORD });
    expect(expired.statusCode).toBe(403);
    expect(await stillOld(ids.vendorthree!)).toBe(true);
    const denied = (await auditActions(t, 'password.change')).filter(
      (e) => e.outcome === 'denied' && e.target_id === ids.vendorthree,
    );
    expect(denied.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses a reused password and a weak one with 400, keeping the mark for another try', async () => {
    const client = await signInAs(t, 'vendorold');
    await confirm(client, 'vendorold');
    const reused = await client.post(CHANGE, { newPassword: TEST_PASSWORD });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().errors[0]).toMatch(/last 5 passwords/);
    const weak = await client.post(CHANGE, { newPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect((await client.post(CHANGE, { newPassword: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('counts wrong current passwords toward the sign-in lockout and refuses a locked account', async () => {
    const client = await signInAs(t, 'vendorlock');
    const max = t.ctx.config.SIGNIN_MAX_FAILURES;
    for (let i = 0; i < max - 1; i += 1) {
      expect((await confirm(client, 'vendorlock', 'wrong')).json()).toEqual({
        authentication: 'authenticationFailure',
      });
    }
    const locking = await confirm(client, 'vendorlock', 'wrong');
    expectTooMany(locking, profileMessages.locked);
    // The lockout's length (SIGNIN_LOCKOUT_MINUTES), not a vague "later".
    expect(Number(locking.headers['retry-after'])).toBe(t.ctx.config.SIGNIN_LOCKOUT_MINUTES * 60);
    // Locked: even the right password is refused unchecked.
    const right = await confirm(client, 'vendorlock');
    expectTooMany(right, profileMessages.locked);
    expect((await auditActions(t, 'signin.lockout')).some((e) => e.target_id === ids.vendorlock)).toBe(true);
  });

  it('refuses missing headers with 400', async () => {
    const client = await signInAs(t, 'vendortwo');
    expect((await client.get(AUTH, { username: 'vendortwo' })).statusCode).toBe(400);
  });

  it.each([
    ['brmone', 403],
    ['adminone', 403],
  ])('refuses %s (not a vendor) with %i', async (name, status) => {
    const client = await signInAs(t, name);
    expect((await confirm(client, name)).statusCode).toBe(status);
    expect((await client.post(CHANGE, { newPassword: NEW_PASSWORD })).statusCode).toBe(status);
  });

  it('answers 401 to an anonymous caller', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    expect((await confirm(client, 'vendorone')).statusCode).toBe(401);
    expect((await client.post(CHANGE, { newPassword: NEW_PASSWORD })).statusCode).toBe(401);
  });
});

describe('profile password change while the identity service is in maintenance', () => {
  it('answers 503', async () => {
    const t = await createTestApp('pglite', { IIQ_MAINTENANCE: 'true' });
    try {
      await createAccount(t, { username: 'vendorone' });
      const client = await signInAs(t, 'vendorone');
      expect((await client.get(AUTH, { username: 'vendorone', password: TEST_PASSWORD })).statusCode).toBe(
        503,
      );
      expect((await client.post(CHANGE, { newPassword: NEW_PASSWORD })).statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });
});
