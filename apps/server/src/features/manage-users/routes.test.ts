import { manageUsersMessages, type ManagedUser } from '@pra/contracts';
import { decodeActivationCode } from '@pra/contracts/endpoints/activation';
import {
  enableOrDisableUser,
  getManagedUsers,
  resetActivationCode,
  sendOtpEmail,
} from '@pra/contracts/endpoints/manage-users';
import { getCurrentUser } from '@pra/contracts/endpoints/session';
import { RESET_LINKS_PER_HOUR } from '../../identity/reset-link';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm, auditActions, countRows, outbox } from '../../../test/support/world';
import { expectTooMany } from '../../../test/support/too-many';

const LIST = '/api/brm/users';
const TOGGLE = '/api/brm/users/enable-or-disable';
const OTP = '/api/brm/users/send-otp-email';
const RESET = '/api/brm/users/reset-activation-code';
const NOT_BRM = 'Unauthorized: User does not have a BRM role';

async function grant(t: TestApp, accountId: string, organizationId: string) {
  await t.ctx.db
    .insertInto('role_grants')
    .values({
      account_id: accountId,
      organization_id: organizationId,
      granted_by: null,
      request_item_id: null,
    })
    .execute();
}

const statusOf = async (t: TestApp, username: string) =>
  (
    await t.ctx.db
      .selectFrom('accounts')
      .select('status')
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
  ).status;

describe.each(testDatabaseKinds)('Manage Users calls on %s', (kind) => {
  let t: TestApp;
  const c: Record<string, TestClient> = {};
  beforeAll(async () => {
    t = await createTestApp(kind);
    const acme = await addOrganization(t, 'Acme Imaging');
    const globex = await addOrganization(t, 'Globex Health IT');
    const brm = await createAccount(t, { username: 'brmacme', type: 'employee', isEmployeeBrm: true });
    const brm2 = await createAccount(t, { username: 'brmglobex', type: 'employee', isEmployeeBrm: true });
    await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    await createAccount(t, { username: 'plainemployee', type: 'employee' });
    await assignBrm(t, brm, acme);
    await assignBrm(t, brm2, globex);
    await grant(t, await createAccount(t, { username: 'vacme' }), acme);
    await grant(t, await createAccount(t, { username: 'vpending', status: 'pendingActivation' }), acme);
    await grant(t, await createAccount(t, { username: 'vglobex' }), globex);
    const both = await createAccount(t, { username: 'vboth' });
    await grant(t, both, acme);
    await grant(t, both, globex);
    await createAccount(t, { username: 'vnone' });
    await grant(t, await createAccount(t, { username: 'vgone', status: 'terminated' }), acme);
    for (const name of ['brmacme', 'brmglobex', 'adminone', 'plainemployee', 'vacme', 'vglobex']) {
      c[name] = await signInAs(t, name);
    }
  });
  afterAll(async () => t?.close());

  it('lists the vendors of the BRM organizations, pending ones included, with the spec fields', async () => {
    const res = await c.brmacme!.call(getManagedUsers);
    expect(res.statusCode).toBe(200);
    expect(res.json<ManagedUser[]>().map((u: { username: string }) => u.username)).toEqual([
      'vacme',
      'vboth',
      'vpending',
    ]);
    expect(res.json<ManagedUser[]>()[2]).toEqual({
      username: 'vpending',
      givenName: 'Vpending',
      familyName: 'Tester',
      email: 'vpending@example.test',
      active: false,
      status: 'pendingActivation',
      canManage: true,
      canResetActivationCode: false,
      // GOVERNANCE.md §6.7: never signed in, not disabled.
      lastSignInAt: null,
      disabledReason: null,
      disabledAt: null,
      // GOVERNANCE.md §7.3: no second factor yet, no organization requiring a key.
      signInMethod: 'none',
      keyRequired: false,
    });
  });

  it('lists every vendor that is not terminated to an admin', async () => {
    const res = await c.adminone!.call(getManagedUsers);
    expect(res.json<ManagedUser[]>().map((u: { username: string }) => u.username)).toEqual([
      'vacme',
      'vboth',
      'vglobex',
      'vnone',
      'vpending',
    ]);
    // The admin's rights on each: it manages them all and may reset their activation codes.
    expect(res.json<ManagedUser[]>().every((u: ManagedUser) => u.canManage && u.canResetActivationCode)).toBe(
      true,
    );
  });

  const calls: [string, string, unknown][] = [
    ['GET', LIST, undefined],
    ['POST', TOGGLE, { enable: false, targetUsername: 'vacme' }],
    ['POST', OTP, { email: 'vacme@example.test', username: 'vacme' }],
    ['POST', RESET, { username: 'vpending' }],
  ];
  it.each(calls)(
    'refuses %s %s to vendors and plain employees (403), anonymous callers (401)',
    async (method, url, body) => {
      for (const name of ['vacme', 'plainemployee']) {
        const res = method === 'GET' ? await c[name]!.get(url) : await c[name]!.post(url, body);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ errors: [NOT_BRM] });
      }
      const anonymous = new TestClient(t.app);
      await anonymous.fetchCsrf();
      const res = method === 'GET' ? await anonymous.get(url) : await anonymous.post(url, body);
      expect(res.statusCode).toBe(401);
      expect(await statusOf(t, 'vacme')).toBe('active');
    },
  );

  it('answers a BRM naming a vendor outside its organizations exactly as an unknown username: 404, audited, nothing changes', async () => {
    const mails = await countRows(t, 'outbox');
    const codes = await countRows(t, 'codes');
    const same = async (call: (name: string) => Promise<{ statusCode: number; body: string }>) => {
      const unknown = await call('nobody');
      expect(unknown.statusCode).toBe(404);
      expect(JSON.parse(unknown.body)).toEqual({ errors: [manageUsersMessages.userNotFound] });
      // Another organization's vendor, one of no organization, a terminated one, an employee.
      for (const name of ['vglobex', 'VGLOBEX', 'vnone', 'vgone', 'brmglobex']) {
        const res = await call(name);
        expect([res.statusCode, res.body], name).toEqual([unknown.statusCode, unknown.body]);
      }
    };
    await same((name) =>
      c.brmacme!.call(enableOrDisableUser, { body: { enable: false, targetUsername: name } }),
    );
    await same((name) =>
      c.brmacme!.call(enableOrDisableUser, { body: { enable: true, targetUsername: name } }),
    );
    await same((name) =>
      c.brmacme!.post(OTP, { email: `${name.toLowerCase()}@example.test`, username: name }),
    );
    expect(await statusOf(t, 'vglobex')).toBe('active');
    expect((await c.vglobex!.call(getCurrentUser)).statusCode).toBe(200);
    expect(await countRows(t, 'outbox')).toBe(mails);
    expect(await countRows(t, 'codes')).toBe(codes);
    const denied = (await auditActions(t, 'user.disable')).filter((e) => e.outcome === 'denied');
    expect(denied).toHaveLength(6);
    expect(denied.filter((e) => e.target_username === 'vglobex')).toHaveLength(2);
    expect(denied.every((e) => e.actor_username === 'brmacme')).toBe(true);
  });

  it('refuses a BRM disabling a vendor that also holds roles of other organizations, pointing to Terminate Vendors', async () => {
    const vendor = await signInAs(t, 'vboth');
    const res = await c.brmglobex!.call(enableOrDisableUser, {
      body: { enable: false, targetUsername: 'vboth' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: [manageUsersMessages.disableShared] });
    expect(manageUsersMessages.disableShared).toContain('Terminate Vendors');
    expect(await statusOf(t, 'vboth')).toBe('active');
    expect((await vendor.call(getCurrentUser)).statusCode).toBe(200);
    const denied = (await auditActions(t, 'user.disable')).filter(
      (e) => e.outcome === 'denied' && e.target_username === 'vboth',
    );
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({
      actor_username: 'brmglobex',
      details: { reason: 'otherOrganizations' },
    });
  });

  it('disables a vendor: its session ends at once and sign-in is refused; enabling lets it back', async () => {
    const vendor = await signInAs(t, 'vboth');
    expect((await vendor.call(getCurrentUser)).statusCode).toBe(200);
    // An admin may disable any vendor.
    const res = await c.adminone!.call(enableOrDisableUser, {
      body: { enable: false, targetUsername: 'vboth' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await statusOf(t, 'vboth')).toBe('disabled');
    expect((await vendor.call(getCurrentUser)).statusCode).toBe(401);
    await expect(signInAs(t, 'vboth')).rejects.toThrow(/sign-in as vboth failed/);
    expect((await c.brmacme!.call(getManagedUsers)).json()).toContainEqual(
      expect.objectContaining({ username: 'vboth', active: false, status: 'disabled' }),
    );
    // A BRM of one of the vendor's organizations enables it again.
    expect(
      (await c.brmacme!.call(enableOrDisableUser, { body: { enable: true, targetUsername: 'vboth' } }))
        .statusCode,
    ).toBe(200);
    expect(await statusOf(t, 'vboth')).toBe('active');
    expect((await signInAs(t, 'vboth')).jar.size).toBeGreaterThan(0);
    expect((await auditActions(t, 'user.enable')).filter((e) => e.outcome === 'success')).toHaveLength(1);
    // A BRM managing every organization of its vendor disables it.
    expect(
      (await c.brmacme!.call(enableOrDisableUser, { body: { enable: false, targetUsername: 'vacme' } }))
        .statusCode,
    ).toBe(200);
    expect(await statusOf(t, 'vacme')).toBe('disabled');
    expect(
      (await c.brmacme!.call(enableOrDisableUser, { body: { enable: true, targetUsername: 'vacme' } }))
        .statusCode,
    ).toBe(200);
    c.vacme = await signInAs(t, 'vacme');
  });

  it('refuses to enable or disable an account pending activation', async () => {
    const res = await c.brmacme!.call(enableOrDisableUser, {
      body: { enable: true, targetUsername: 'vpending' },
    });
    expect(res.statusCode).toBe(409);
    expect(await statusOf(t, 'vpending')).toBe('pendingActivation');
  });

  it('mails an active vendor a single-use reset link; inactive accounts and wrong emails are refused', async () => {
    const res = await c.brmacme!.call(sendOtpEmail, {
      body: { email: 'VACME@example.test', username: 'vacme' },
    });
    expect(res.statusCode).toBe(200);
    const mail = (await outbox(t, 'vacme@example.test')).at(-1);
    expect(mail?.text_body).toMatch(/\/forgot-password\?code=[A-Z0-9-]+/);
    expect(
      (await auditActions(t, 'user.send-otp-email')).filter((e) => e.outcome === 'success'),
    ).toHaveLength(1);
    expect(
      (await c.brmacme!.call(sendOtpEmail, { body: { email: 'other@example.test', username: 'vacme' } }))
        .statusCode,
    ).toBe(400);
    const pending = await c.brmacme!.call(sendOtpEmail, {
      body: { email: 'vpending@example.test', username: 'vpending' },
    });
    expect(pending.statusCode).toBe(409);
  });

  it('sends at most five reset links an hour to one account, whoever asks; the sixth is refused and sends nothing', async () => {
    const before = (await outbox(t, 'vglobex@example.test')).length;
    const codes = await countRows(t, 'codes');
    const send = () =>
      c.adminone!.call(sendOtpEmail, { body: { email: 'vglobex@example.test', username: 'vglobex' } });
    for (let i = 0; i < RESET_LINKS_PER_HOUR.limit; i++) expect((await send()).statusCode).toBe(200);
    const refused = await send();
    expectTooMany(refused);
    expect((await outbox(t, 'vglobex@example.test')).length - before).toBe(RESET_LINKS_PER_HOUR.limit);
    expect((await countRows(t, 'codes')) - codes).toBe(RESET_LINKS_PER_HOUR.limit);
  });

  it('refuses reset-activation-code to a BRM that is not an admin, audited, nothing changes', async () => {
    const codes = await countRows(t, 'codes');
    const res = await c.brmacme!.call(resetActivationCode, { body: { username: 'vpending' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: ['Only an administrator can reset an activation code.'] });
    expect(await countRows(t, 'codes')).toBe(codes);
    const denied = (await auditActions(t, 'user.reset-activation-code')).filter(
      (e) => e.outcome === 'denied',
    );
    expect(denied).toHaveLength(1);
  });

  it('lets an admin reset a pending account activation code: the old one stops working, the new one is mailed', async () => {
    const old = await c.adminone!.call(resetActivationCode, { body: { username: 'vpending' } });
    expect(old.statusCode).toBe(200);
    const first = (await outbox(t, 'vpending@example.test'))
      .at(-1)!
      .text_body.match(/[A-Z2-9]{4}(-[A-Z2-9]{4}){3}/)![0];
    expect((await c.adminone!.call(resetActivationCode, { body: { username: 'vpending' } })).statusCode).toBe(
      200,
    );
    const second = (await outbox(t, 'vpending@example.test'))
      .at(-1)!
      .text_body.match(/[A-Z2-9]{4}(-[A-Z2-9]{4}){3}/)![0];
    expect(second).not.toBe(first);
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const decode = (claimCode: string) => anonymous.call(decodeActivationCode, { body: { claimCode } });
    expect((await decode(first)).json()).toMatchObject({ isValid: false });
    expect((await decode(second)).json()).toMatchObject({ isValid: true });
    expect((await c.adminone!.call(resetActivationCode, { body: { username: 'vacme' } })).statusCode).toBe(
      409,
    );
  });

  it.each([
    [TOGGLE, { enable: 'no', targetUsername: 'vacme' }],
    [TOGGLE, { enable: true }],
    [TOGGLE, { enable: true, targetUsername: 'vacme', extra: 1 }],
    [OTP, { email: 'not-an-email', username: 'vacme' }],
    [RESET, { username: '' }],
    [RESET, { username: 'x'.repeat(300) }],
  ])('answers 400 to bad input on %s', async (url, body) => {
    const res = await c.adminone!.post(url, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.length).toBeGreaterThan(0);
  });
});

describe('Manage Users while the identity service is in maintenance', () => {
  it('answers 503 to every change and still lists', async () => {
    const t = await createTestApp('pglite', { IIQ_MAINTENANCE: 'true' });
    try {
      await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
      await createAccount(t, { username: 'vendorone' });
      const admin = await signInAs(t, 'adminone');
      expect(
        (await admin.call(enableOrDisableUser, { body: { enable: false, targetUsername: 'vendorone' } }))
          .statusCode,
      ).toBe(503);
      expect(
        (await admin.call(sendOtpEmail, { body: { email: 'vendorone@example.test', username: 'vendorone' } }))
          .statusCode,
      ).toBe(503);
      expect((await admin.call(resetActivationCode, { body: { username: 'vendorone' } })).statusCode).toBe(
        503,
      );
      expect((await admin.call(getManagedUsers)).statusCode).toBe(200);
      expect(await statusOf(t, 'vendorone')).toBe('active');
    } finally {
      await t.close();
    }
  });
});
