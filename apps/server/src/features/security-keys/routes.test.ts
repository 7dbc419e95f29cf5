import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { recoveryMessages, securityKeyMessages, type SecurityKeyList } from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/security-keys';
import { reauthenticate } from '@pra/contracts/endpoints/profile';
import { confirmOwner } from '@pra/contracts/endpoints/authenticator';
import { recoveryKeyOptions, recoveryKeyVerify } from '@pra/contracts/endpoints/recovery';
import { TestClock } from '../../platform/clock';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs, TEST_PASSWORD } from '../../../test/support/sign-in';
import { SoftAuthenticator } from '../../../test/support/soft-authenticator';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, auditActions, outbox } from '../../../test/support/world';
import { webauthnMessages } from '../../identity/mfa/webauthn';

describe.each(testDatabaseKinds)('Profile → security keys and passkeys on %s', (kind) => {
  let t: TestApp;
  let origin: string;
  const clock = new TestClock();
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    origin = new URL(t.ctx.config.publicUrl).origin;
  });
  afterAll(async () => t?.close());

  async function vendor() {
    n += 1;
    const username = `keyvendor${n}${Date.now() % 10000}`;
    const id = await createAccount(t, { username });
    const client = await signInAs(t, username);
    return { id, username, client };
  }

  async function reauth(client: TestClient, username: string) {
    const res = await client.call(reauthenticate, { headers: { username, password: TEST_PASSWORD } });
    expect(res.json()).toEqual({ authentication: 'success' });
  }

  async function addKey(client: TestClient, authenticator: SoftAuthenticator, nickname = 'Blue key') {
    const options = await client.call(calls.securityKeyRegistrationOptions);
    expect(options.statusCode).toBe(200);
    const { options: json } = options.json<{ options: PublicKeyCredentialCreationOptionsJSON }>();
    return client.call(calls.addSecurityKey, {
      body: { credential: authenticator.create(json) as never, nickname },
    });
  }

  async function list(client: TestClient) {
    return (await client.call(calls.getSecurityKeys)).json<SecurityKeyList>();
  }

  it('adds a key after a fresh re-authentication, lists, renames and removes it, with mails and audit events', async () => {
    const me = await vendor();
    const authenticator = new SoftAuthenticator(origin);
    const before = await me.client.call(calls.securityKeyRegistrationOptions);
    expect(before.statusCode).toBe(403);
    expect(before.json<{ errors: string[] }>().errors[0]).toBe(securityKeyMessages.reauthenticate);

    await reauth(me.client, me.username);
    const added = await addKey(me.client, authenticator);
    expect(added.statusCode).toBe(200);
    clock.advance(1000); // the list is oldest first
    const second = await addKey(me.client, new SoftAuthenticator(origin, { synced: true }), 'Phone passkey');
    expect(second.statusCode).toBe(200);
    const keys = await list(me.client);
    expect(keys.keys.map((k) => [k.nickname, k.type, k.lastUsedAt])).toEqual([
      ['Blue key', 'thisDevice', null],
      ['Phone passkey', 'synced', null],
    ]);
    expect(keys).toMatchObject({
      authenticatorApp: null,
      required: false,
      requiredBy: null,
      needsKeyConfirmation: false,
      max: 10,
    });

    const id = keys.keys[0]!.id;
    const renamed = await me.client.call(calls.renameSecurityKey, {
      params: { id },
      body: { nickname: 'Office key' },
    });
    expect(renamed.statusCode).toBe(200);
    const tooLong = await me.client.call(calls.renameSecurityKey, {
      params: { id },
      body: { nickname: 'x'.repeat(65) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect((await list(me.client)).keys[0]!.nickname).toBe('Office key');

    const removed = await me.client.call(calls.removeSecurityKey, { params: { id } });
    expect(removed.statusCode).toBe(200);
    expect((await list(me.client)).keys.map((k) => k.nickname)).toEqual(['Phone passkey']);
    const subjects = (await outbox(t, `${me.username}@example.test`)).map((m) => m.subject);
    expect(subjects.filter((s) => s.includes('added'))).toHaveLength(2);
    expect(subjects.filter((s) => s.includes('removed'))).toHaveLength(1);
    for (const action of ['passkey.register', 'passkey.rename', 'passkey.remove']) {
      expect(
        (await auditActions(t, action)).some((e) => e.target_id === me.id),
        action,
      ).toBe(true);
    }
  });

  it("cannot rename or remove another vendor's key (404), nor a key after the re-authentication ran out", async () => {
    // The app's clock two minutes behind the database's (as when earlier tests of a loaded run took
    // that long after the clock was set): the mark's five minutes are the app's clock's, so six
    // minutes on it are past the mark whatever the database's own time says.
    clock.set(new Date(Date.now() - 2 * 60_000));
    const owner = await vendor();
    await reauth(owner.client, owner.username);
    await addKey(owner.client, new SoftAuthenticator(origin));
    const id = (await list(owner.client)).keys[0]!.id;
    const other = await vendor();
    await reauth(other.client, other.username);
    expect(
      (await other.client.call(calls.renameSecurityKey, { params: { id }, body: { nickname: 'Mine' } }))
        .statusCode,
    ).toBe(404);
    expect((await other.client.call(calls.removeSecurityKey, { params: { id } })).statusCode).toBe(404);
    clock.advance(6 * 60_000);
    try {
      const late = await owner.client.call(calls.removeSecurityKey, { params: { id } });
      expect(late.statusCode).toBe(403);
    } finally {
      clock.set(new Date());
    }
    expect((await list(owner.client)).keys).toHaveLength(1);
  });

  it('needs an assertion with an existing key to add one when the account requires phishing-resistant sign-in, and keeps the last one', async () => {
    const me = await vendor();
    const first = new SoftAuthenticator(origin);
    await reauth(me.client, me.username);
    expect((await addKey(me.client, first)).statusCode).toBe(200);
    // A grant in a high-tier organization: that tier requires phishing-resistant sign-in (0010).
    const orgId = await addOrganization(t, `High ${me.username}`);
    await t.ctx.db.updateTable('organizations').set({ risk_tier: 'high' }).where('id', '=', orgId).execute();
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: me.id,
        organization_id: orgId,
        expires_at: new Date(clock.now().getTime() + 86_400_000 * 30),
      })
      .execute();
    expect(await list(me.client)).toMatchObject({
      required: true,
      requiredBy: `High ${me.username}`,
      needsKeyConfirmation: true,
    });

    const refused = await me.client.call(calls.securityKeyRegistrationOptions);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ errors: string[] }>().errors[0]).toBe(securityKeyMessages.confirmWithKey);

    // A bad assertion (no user verification) confirms nothing.
    let options = (await me.client.call(calls.securityKeyAssertionOptions)).json<{
      options: PublicKeyCredentialRequestOptionsJSON;
    }>().options;
    const bad = await me.client.call(calls.confirmWithSecurityKey, {
      body: { credential: first.get(options, { noUserVerification: true }) as never },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: string[] }>().errors[0]).toBe(webauthnMessages.noUserVerification);
    expect((await me.client.call(calls.securityKeyRegistrationOptions)).statusCode).toBe(403);

    options = (await me.client.call(calls.securityKeyAssertionOptions)).json<{
      options: PublicKeyCredentialRequestOptionsJSON;
    }>().options;
    const ok = await me.client.call(calls.confirmWithSecurityKey, {
      body: { credential: first.get(options) as never },
    });
    expect(ok.statusCode).toBe(200);
    expect((await addKey(me.client, new SoftAuthenticator(origin), 'Spare key')).statusCode).toBe(200);

    const keys = (await list(me.client)).keys;
    expect((await me.client.call(calls.removeSecurityKey, { params: { id: keys[0]!.id } })).statusCode).toBe(
      200,
    );
    const last = await me.client.call(calls.removeSecurityKey, { params: { id: keys[1]!.id } });
    expect(last.statusCode).toBe(409);
    expect(last.json<{ errors: string[] }>().errors[0]).toBe(webauthnMessages.lastRequired);
    expect((await list(me.client)).keys).toHaveLength(1);
  });

  it('refuses an attestation made for another origin', async () => {
    const me = await vendor();
    await reauth(me.client, me.username);
    const { options } = (await me.client.call(calls.securityKeyRegistrationOptions)).json<{
      options: PublicKeyCredentialCreationOptionsJSON;
    }>();
    const res = await me.client.call(calls.addSecurityKey, {
      body: {
        credential: new SoftAuthenticator(origin).create(options, {
          origin: 'https://phish.example',
        }) as never,
        nickname: 'Phished',
      },
    });
    expect(res.statusCode).toBe(400);
    expect((await list(me.client)).keys).toEqual([]);
  });

  it('Forgot Password: the bound account’s key verifies the session, once; then the password is set', async () => {
    const me = await vendor();
    const key = new SoftAuthenticator(origin);
    await reauth(me.client, me.username);
    await addKey(me.client, key);
    const stranger = new TestClient(t.app);
    await stranger.fetchCsrf();
    // Not identified: no options for the account.
    expect((await stranger.call(recoveryKeyOptions, { body: { username: me.username } })).statusCode).toBe(
      403,
    );
    const found = await stranger.post('/api/user/forgot-password/identify', {
      username: me.username,
      email: `${me.username}@example.test`,
    });
    expect(found.json<{ isAccountValid: boolean; hasSecurityKey?: boolean }>()).toMatchObject({
      isAccountValid: true,
      hasSecurityKey: true,
    });

    // Another authenticator's key: refused, nothing verified.
    let res = await stranger.call(recoveryKeyOptions, { body: { username: me.username } });
    let options = res.json<{ options: PublicKeyCredentialRequestOptionsJSON }>().options;
    const other = new SoftAuthenticator(origin);
    other.create({ ...(await registrationOptionsFor()), challenge: 'x' });
    const wrong = await stranger.call(recoveryKeyVerify, {
      body: { username: me.username, credential: other.get(options) as never },
    });
    expect(wrong.json()).toEqual({ result: 'failure', message: webauthnMessages.notRegistered });
    expect(
      (
        await stranger.post('/api/user/forgot-password/set-password', {
          username: me.username,
          newPassword: 'Tr1cky-Zebra-Lamp',
        })
      ).statusCode,
    ).toBe(403);

    res = await stranger.call(recoveryKeyOptions, { body: { username: me.username } });
    options = res.json<{ options: PublicKeyCredentialRequestOptionsJSON }>().options;
    const ok = await stranger.call(recoveryKeyVerify, {
      body: { username: me.username, credential: key.get(options) as never },
    });
    expect(ok.json()).toEqual({ result: 'success' });
    const set = await stranger.post('/api/user/forgot-password/set-password', {
      username: me.username,
      newPassword: 'Tr1cky-Zebra-Lamp',
    });
    expect(set.statusCode).toBe(200);
    const verified = (await auditActions(t, 'password.recovery-verify')).filter((e) => e.target_id === me.id);
    expect(verified.map((e) => [e.outcome, e.details.method])).toEqual([
      ['failure', 'securityKey'],
      ['success', 'securityKey'],
    ]);
  });

  /** A grant in a high-tier organization: that tier requires phishing-resistant sign-in (0010). */
  async function requireKeys(accountId: string, name: string) {
    const orgId = await addOrganization(t, name);
    await t.ctx.db.updateTable('organizations').set({ risk_tier: 'high' }).where('id', '=', orgId).execute();
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: accountId,
        organization_id: orgId,
        expires_at: new Date(clock.now().getTime() + 86_400_000 * 90),
      })
      .execute();
  }

  it('Forgot Password for an account that must use its key: passcode and push refused, the link leads to the key check; without a key, the sponsor', async () => {
    const me = await vendor();
    const key = new SoftAuthenticator(origin);
    await reauth(me.client, me.username);
    await addKey(me.client, key);
    await requireKeys(me.id, `Key-only ${me.username}`);
    const stranger = new TestClient(t.app);
    await stranger.fetchCsrf();
    // A wrong email answers exactly as for nobody: nothing about keys.
    const unknown = await stranger.post('/api/user/forgot-password/identify', {
      username: 'nobody-at-all',
      email: 'nobody@example.test',
    });
    const wrongEmail = await stranger.post('/api/user/forgot-password/identify', {
      username: me.username,
      email: 'someone.else@example.test',
    });
    expect(wrongEmail.json()).toEqual(unknown.json());
    const found = await stranger.post('/api/user/forgot-password/identify', {
      username: me.username,
      email: `${me.username}@example.test`,
    });
    expect(found.json()).toMatchObject({ isAccountValid: true, hasSecurityKey: true, keyRequired: true });
    const otp = await stranger.post('/api/user/forgot-password/verify-otp', {
      username: me.username,
      otp: '123456',
    });
    expect(otp.statusCode).toBe(403);
    expect(otp.json<{ errors: string[] }>().errors[0]).toBe(recoveryMessages.keyRequired);
    const push = await stranger.post('/api/user/forgot-password/ping-push', { username: me.username });
    expect(push.statusCode).toBe(403);

    // The emailed link binds the account but verifies nothing: the key does.
    expect(
      (await stranger.post('/api/user/forgot-password/send-reset-email', { username: me.username })).json(),
    ).toEqual({ success: true });
    const code = (await outbox(t, `${me.username}@example.test`))
      .at(-1)!
      .text_body.match(/[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/)![0];
    const linked = new TestClient(t.app);
    await linked.fetchCsrf();
    const byCode = await linked.post('/api/user/forgot-password/identify-by-code', { code });
    expect(byCode.json()).toMatchObject({ isCodeValid: true, keyRequired: true, hasSecurityKey: true });
    const early = await linked.post('/api/user/forgot-password/set-password', {
      username: me.username,
      newPassword: 'Tr1cky-Zebra-Lamp',
    });
    expect(early.statusCode).toBe(403);
    const options = (await linked.call(recoveryKeyOptions, { body: { username: me.username } })).json<{
      options: PublicKeyCredentialRequestOptionsJSON;
    }>().options;
    expect(
      (
        await linked.call(recoveryKeyVerify, {
          body: { username: me.username, credential: key.get(options) as never },
        })
      ).json(),
    ).toEqual({ result: 'success' });
    const set = await linked.post('/api/user/forgot-password/set-password', {
      username: me.username,
      newPassword: 'Tr1cky-Zebra-Lamp',
    });
    expect(set.statusCode).toBe(200);
    // The link's code was used up with the password.
    const again = new TestClient(t.app);
    await again.fetchCsrf();
    expect(
      (await again.post('/api/user/forgot-password/identify-by-code', { code })).json<{
        isCodeValid: boolean;
      }>().isCodeValid,
    ).toBe(false);
    const refusals = (await auditActions(t, 'password.recovery-verify')).filter(
      (e) => e.target_id === me.id && e.details.result === 'keyRequired',
    );
    expect(refusals.map((e) => e.details.method)).toEqual(['passcode', 'push']);

    // No key and the grace over: only the sponsor's reset helps.
    const bare = await vendor();
    await requireKeys(bare.id, `Keyless ${bare.username}`);
    await t.ctx.db
      .insertInto('passkey_requirements')
      .values({ account_id: bare.id, since: new Date(clock.now().getTime() - 31 * 86_400_000) })
      .execute();
    const other = new TestClient(t.app);
    await other.fetchCsrf();
    const bareFound = await other.post('/api/user/forgot-password/identify', {
      username: bare.username,
      email: `${bare.username}@example.test`,
    });
    expect(bareFound.json()).toMatchObject({
      isAccountValid: true,
      hasSecurityKey: false,
      keyRequired: true,
    });
    for (const path of [
      '/api/user/forgot-password/send-reset-email',
      '/api/user/forgot-password/ping-push',
    ]) {
      const res = await other.post(path, { username: bare.username });
      expect(res.statusCode, path).toBe(403);
      expect(res.json<{ errors: string[] }>().errors[0]).toBe(recoveryMessages.keyRequiredNoKey);
    }
  });

  it('a vendor with only keys confirms a factor change with a key, never the password alone', async () => {
    const me = await vendor();
    const key = new SoftAuthenticator(origin);
    await reauth(me.client, me.username);
    await addKey(me.client, key);
    const alone = await me.client.call(confirmOwner, { body: { password: TEST_PASSWORD } });
    expect(alone.json()).toEqual({ result: 'invalidCode' });
    const { options } = (await me.client.call(calls.securityKeyAssertionOptions)).json<{
      options: PublicKeyCredentialRequestOptionsJSON;
    }>();
    expect(
      (
        await me.client.call(calls.confirmWithSecurityKey, {
          body: { credential: key.get(options) as never },
        })
      ).statusCode,
    ).toBe(200);
    const confirmed = await me.client.call(confirmOwner, { body: { password: TEST_PASSWORD } });
    expect(confirmed.json()).toEqual({ result: 'success' });
  });

  /** Registration options of some account: enough for a soft authenticator to make a key of its own. */
  async function registrationOptionsFor(): Promise<PublicKeyCredentialCreationOptionsJSON> {
    return {
      rp: { name: 'PRA Portal', id: new URL(origin).hostname },
      user: { id: 'AAAA', name: 'someone', displayName: 'Someone' },
      challenge: 'AAAA',
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    };
  }
});
