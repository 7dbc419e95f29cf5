import { manageUsersMessages as m } from '@pra/contracts';
import { getManagedUsers, resetSignInMethods } from '@pra/contracts/endpoints/manage-users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestApp, type TestClient } from '../../../test/support/test-app';
import { addOrganization, assignBrm, auditActions, outbox } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';

describe.each(testDatabaseKinds)('Reset Sign-in Methods on %s', (kind) => {
  let t: TestApp;
  const c: Record<string, TestClient> = {};
  const ids: Record<string, string> = {};
  const clock = new TestClock();

  async function grant(accountId: string, organizationId: string) {
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: accountId,
        organization_id: organizationId,
        expires_at: new Date(clock.now().getTime() + 90 * 86_400_000),
      })
      .execute();
  }

  /** A confirmed authenticator app and a stored key, as enrolment leaves them. */
  async function giveFactors(accountId: string) {
    await t.ctx.db
      .insertInto('mfa_devices')
      .values({
        account_id: accountId,
        nickname: 'Work phone',
        secret_encrypted: t.ctx.encryptor.encrypt('JBSWY3DPEHPK3PXP'),
        confirmed_at: clock.now(),
        created_at: clock.now(),
      })
      .execute();
    await t.ctx.db
      .insertInto('webauthn_credentials')
      .values({
        account_id: accountId,
        credential_id: `cred-${accountId}`,
        public_key: 'pk',
        device_type: 'singleDevice',
        backed_up: false,
        aaguid: '00000000-0000-0000-0000-000000000000',
        nickname: 'Blue key',
        created_at: clock.now(),
      })
      .execute();
  }

  const factorsOf = async (accountId: string) => ({
    apps: (
      await t.ctx.db.selectFrom('mfa_devices').select('id').where('account_id', '=', accountId).execute()
    ).length,
    keys: (
      await t.ctx.db
        .selectFrom('webauthn_credentials')
        .select('id')
        .where('account_id', '=', accountId)
        .execute()
    ).length,
  });
  const accountOf = (id: string) =>
    t.ctx.db
      .selectFrom('accounts')
      .select(['status', 'email'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    const standard = await addOrganization(t, 'Standard Imaging');
    const high = await addOrganization(t, 'High Labs');
    await t.ctx.db.updateTable('organizations').set({ risk_tier: 'high' }).where('id', '=', high).execute();
    const brm = await createAccount(t, { username: 'rbrm', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brm, standard);
    await assignBrm(t, brm, high);
    const admin = await createAccount(t, { username: 'radmin', type: 'employee', isAdmin: true });
    await assignBrm(t, admin, standard);
    const auditor = await createAccount(t, { username: 'rauditor', type: 'employee', isAdmin: true });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', auditor).execute();
    await createAccount(t, { username: 'remployee', type: 'employee' });
    ids.plain = await createAccount(t, { username: 'rplain' });
    await grant(ids.plain, standard);
    ids.keyed = await createAccount(t, { username: 'rkeyed' });
    await grant(ids.keyed, high);
    ids.pending = await createAccount(t, { username: 'rpending', status: 'pendingActivation' });
    await grant(ids.pending, standard);
    for (const name of ['rbrm', 'radmin', 'rauditor', 'remployee', 'rplain'])
      c[name] = await signInAs(t, name);
    await giveFactors(ids.plain);
    await giveFactors(ids.keyed);
  });
  afterAll(async () => t?.close());

  const reset = (who: string, username: string, identityVerified = false) =>
    c[who]!.call(resetSignInMethods, { body: { username, identityVerified } });

  it('refuses every role but an admin, nothing changes; a BRM is audited', async () => {
    for (const who of ['rbrm', 'rauditor', 'remployee', 'rplain']) {
      const res = await reset(who, 'rplain', true);
      expect(res.statusCode, who).toBe(403);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/brm/users/reset-sign-in-methods',
      payload: { username: 'rplain', identityVerified: true },
    });
    expect([401, 403]).toContain(anonymous.statusCode);
    expect((await reset('rbrm', 'rplain', true)).json()).toEqual({ errors: [m.notAdminSignInReset] });
    expect(await factorsOf(ids.plain!)).toEqual({ apps: 1, keys: 1 });
    const denied = (await auditActions(t, 'mfa.reset')).filter((e) => e.outcome === 'denied');
    expect(denied.map((e) => e.details.reason)).toContain('notAdmin');
  });

  it('answers bad input and unknown, pending or terminated accounts with a 4xx', async () => {
    const bad = await c.radmin!.call(resetSignInMethods, { body: { username: 'rplain' } as never });
    expect(bad.statusCode).toBe(400);
    expect((await reset('radmin', 'nobody-here', true)).statusCode).toBe(404);
    expect((await reset('radmin', 'rpending', true)).statusCode).toBe(409);
  });

  const rowOf = async (username: string) => {
    const res = await c.radmin!.call(getManagedUsers, { query: { page: 1, filter: username } });
    return res.json<{ items: { username: string; signInMethod?: string; keyRequired?: boolean }[] }>()
      .items[0];
  };
  const methodOf = async (username: string) => (await rowOf(username))?.signInMethod;

  it('Manage Users tells the dialog which accounts need the identity check', async () => {
    expect((await rowOf('rkeyed'))?.keyRequired).toBe(true);
    expect((await rowOf('rplain'))?.keyRequired).toBe(false);
  });

  it('resets an MFA account: factors gone, sessions ended, W4 mailed, audited with the identity check', async () => {
    expect(await methodOf('rplain')).toBe('securityKey');
    const res = await reset('radmin', 'rplain');
    expect(await methodOf('rplain')).toBe('none');
    expect(res.statusCode).toBe(200);
    expect(await factorsOf(ids.plain!)).toEqual({ apps: 0, keys: 0 });
    const { status, email } = await accountOf(ids.plain!);
    expect(status).toBe('active');
    expect((await c.rplain!.get('/api/user')).statusCode).toBe(401);
    const subjects = (await outbox(t, email)).map((x) => x.subject);
    expect(subjects).toContain('Your sign-in methods were reset');
    const done = (await auditActions(t, 'mfa.reset')).filter((e) => e.outcome === 'success');
    expect(done.at(-1)?.details).toMatchObject({
      by: 'radmin',
      identityVerified: false,
      keysRemoved: 1,
      newActivationCode: false,
    });
  });

  it('requires the identity check for an account that must use a key, and gives it a new activation code', async () => {
    const unchecked = await reset('radmin', 'rkeyed', false);
    expect(unchecked.statusCode).toBe(400);
    expect(unchecked.json()).toEqual({ errors: [m.identityCheckRequired] });
    expect(await factorsOf(ids.keyed!)).toEqual({ apps: 1, keys: 1 });
    const denied = (await auditActions(t, 'mfa.reset')).filter(
      (e) => e.outcome === 'denied' && e.target_id === ids.keyed,
    );
    expect(denied.map((e) => e.details.reason)).toEqual(['identityNotVerified']);

    const res = await reset('radmin', 'rkeyed', true);
    expect(res.statusCode).toBe(200);
    expect(await factorsOf(ids.keyed!)).toEqual({ apps: 0, keys: 0 });
    const { status, email } = await accountOf(ids.keyed!);
    expect(status).toBe('pendingActivation');
    const mails = await outbox(t, email);
    expect(mails.map((x) => x.subject)).toContain('Your sign-in methods were reset');
    expect(mails.length).toBe(2);
    // No code in the audit.
    const done = (await auditActions(t, 'mfa.reset')).filter(
      (e) => e.outcome === 'success' && e.target_id === ids.keyed,
    );
    expect(done.map((e) => e.details)).toEqual([
      { by: 'radmin', identityVerified: true, keysRemoved: 1, newActivationCode: true },
    ]);
  });
});
