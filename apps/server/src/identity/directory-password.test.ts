// Passwords written synchronously to the hospital's directory (IDENTITY_STORE=ldap, a real slapd
// started by the test), on both engines: activation and Change Password set the password where the
// vendor signs in (a bind proves it), GET /api/user/auth checks it by binding, the directory's own
// policy refusal is a 400 in words, and an outage is a 503 that uses up neither the activation code
// nor the re-authentication mark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { slapdInstalled, startSlapd, type Slapd } from '../../test/support/slapd';
import { createTestApp, TestClient, type TestApp } from '../../test/support/test-app';
import { activationCodeFor, addOrganization, assignBrm } from '../../test/support/world';
import { applyDueProvisioning } from './directory/provisioning-worker';
import { IIQ_UNAVAILABLE } from './maintenance';

if (!slapdInstalled)
  console.warn('SKIPPED directory-password.test.ts: needs slapd (apt-get install -y slapd)');

const ACTIVATE = '/api/user/activate/activate-with-password';
const DECODE = '/api/user/activate/decode';
const AUTH = '/api/user/auth';
const CHANGE = '/api/user/auth/change-password';
/** Passes the portal's policy (17 characters), not the directory's (20 at least, below). */
const PORTAL_ONLY = 'Tr1cky-Zebra-Lamp';
const FIRST = 'Tr1cky-Zebra-Lamp-Orbit';
const SECOND = 'Quiet-Harbor-Violet-92';

describe.skipIf(!slapdInstalled).each(testDatabaseKinds)('directory passwords on %s', (kind) => {
  let slapd: Slapd;
  let t: TestApp;
  let admin: TestClient;
  let username = '';
  const drain = async () => {
    for (;;) {
      const round = await applyDueProvisioning(t.ctx.db, t.ctx.identityStore, t.ctx.clock);
      if (round.applied + round.failed === 0) return;
    }
  };
  const anonymous = async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    return client;
  };

  beforeAll(async () => {
    slapd = await startSlapd({ policy: { minLength: 20, inHistory: 3 } });
    t = await createTestApp(kind, slapd.env);
    const acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    const adminId = await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    await assignBrm(t, adminId, acme);
    admin = await signInAs(t, 'adminone');
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.close();
  });

  it('activation: the directory refusal is a 400 in words, an outage a 503, and the code stays valid', async () => {
    const email = 'grace@acme.example';
    const registered = await admin.post('/api/user/new/submit', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      org: 'Acme Imaging',
    });
    expect(registered.statusCode).toBe(200);
    await drain();
    const code = await activationCodeFor(t, email);
    const client = await anonymous();
    const refused = await client.post(ACTIVATE, { claimCode: code, newPassword: PORTAL_ONLY });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatch(
      /directory refused this password: it is too short or too simple/,
    );

    await slapd.stop();
    try {
      const down = await client.post(ACTIVATE, { claimCode: code, newPassword: FIRST });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ errors: [IIQ_UNAVAILABLE] });
    } finally {
      await slapd.start();
    }
    expect((await client.post(DECODE, { claimCode: code })).statusCode).toBe(200);
    const activated = await client.post(ACTIVATE, { claimCode: code, newPassword: FIRST });
    expect(activated.statusCode).toBe(200);
    await drain();
    const account = await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    username = account.username;
    expect(account.status).toBe('active');
    expect(await t.ctx.identityStore.checkPassword(username, FIRST)).toBe(true);
  });

  it('Change Password: checked by a bind, written to the directory, the mark kept through an outage', async () => {
    const vendor = await signInAs(t, username);
    expect((await vendor.get(AUTH, { username, password: 'not-it-at-all' })).json()).not.toEqual({
      authentication: 'success',
    });
    expect((await vendor.get(AUTH, { username, password: FIRST })).json()).toEqual({
      authentication: 'success',
    });
    await slapd.stop();
    try {
      expect((await vendor.post(CHANGE, { newPassword: SECOND })).statusCode).toBe(503);
    } finally {
      await slapd.start();
    }
    const changed = await vendor.post(CHANGE, { newPassword: SECOND });
    expect(changed.statusCode).toBe(200);
    expect(await t.ctx.identityStore.checkPassword(username, SECOND)).toBe(true);
    expect(await t.ctx.identityStore.checkPassword(username, FIRST)).toBe(false);
  });
});
