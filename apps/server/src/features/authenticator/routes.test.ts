import { generate } from 'otplib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs, TEST_PASSWORD } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { auditActions } from '../../../test/support/world';
import { newTotpSecret } from '../../identity/mfa/totp';

const CONFIRM = '/api/user/authenticator/confirm';
const LIST = '/api/user/authenticators';
const PAIR = '/api/user/authenticator/pair';
const REMOVE = '/api/user/authenticator/remove';
const STATUS = '/api/authenticator/status';
const ANSWER = '/api/authenticator/answer';
const IDENTIFY = '/api/user/forgot-password/identify';
const PUSH = '/api/user/forgot-password/ping-push';
const OTP = '/api/user/forgot-password/verify-otp';
const SET = '/api/user/forgot-password/set-password';

describe.each(testDatabaseKinds)('authenticator on %s', (kind) => {
  let t: TestApp;
  let serial = 0;

  async function phone(): Promise<TestClient> {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    return client;
  }

  /** A signed-in vendor with an enrolled TOTP device (its secret known here). */
  async function signedInVendor() {
    serial += 1;
    const username = `phoneuser${serial}`;
    const id = await createAccount(t, { username });
    const secret = newTotpSecret();
    await t.ctx.db
      .insertInto('mfa_devices')
      .values({
        account_id: id,
        nickname: 'Phone',
        secret_encrypted: t.ctx.encryptor.encrypt(secret),
        last_used_step: null,
        confirmed_at: sql<Date>`now() - interval '30 days'`,
      })
      .execute();
    const browser = await signInAs(t, username);
    return { id, username, email: `${username}@example.test`, secret, browser };
  }
  type Vendor = Awaited<ReturnType<typeof signedInVendor>>;

  /** The current passcode of the vendor's device, its time step not used yet. */
  async function passcodeOf(v: Vendor) {
    await t.ctx.db
      .updateTable('mfa_devices')
      .set({ last_used_step: null })
      .where('account_id', '=', v.id)
      .execute();
    return generate({ secret: v.secret });
  }

  async function confirm(v: Vendor) {
    const res = await v.browser.post(CONFIRM, { password: TEST_PASSWORD, passcode: await passcodeOf(v) });
    expect(res.json()).toEqual({ result: 'success' });
  }

  /** Confirms, pairs a phone, and returns its device key. */
  async function pair(v: Vendor, nickname = 'Work phone') {
    await confirm(v);
    const res = await v.browser.post(PAIR, { nickname });
    expect(res.statusCode).toBe(200);
    const { pairingUrl, qrDataUrl } = res.json<{ pairingUrl: string; qrDataUrl: string }>();
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    return new URLSearchParams(new URL(pairingUrl).hash.slice(1)).get('key')!;
  }

  async function liveAuthenticators(accountId: string) {
    return t.ctx.db
      .selectFrom('authenticators')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .execute();
  }

  /** Makes the account's phones look paired `hours` ago. */
  async function agePhones(accountId: string, hours: number) {
    await t.ctx.db
      .updateTable('authenticators')
      .set({ created_at: new Date(Date.now() - hours * 3600_000) })
      .where('account_id', '=', accountId)
      .execute();
  }

  async function addPush(accountId: string) {
    const row = await t.ctx.db
      .insertInto('push_challenges')
      .values({
        account_id: accountId,
        purpose: 'reset',
        client_address: '198.51.100.7',
        expires_at: sql<Date>`now() + interval '1 minute'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The dev mailbox's messages to `to`, newest first (as a person reads them). */
  async function mailboxOf(to: string) {
    const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox/api/messages' });
    expect(res.statusCode).toBe(200);
    return res.json<{ to: string; subject: string; text: string }[]>().filter((m) => m.to === to);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('pairing needs the owner: a session alone, the password alone or a wrong passcode pair nothing', async () => {
    const anonymous = await phone();
    expect((await anonymous.post(PAIR, { nickname: 'x' })).statusCode).toBe(401);
    expect((await anonymous.post(CONFIRM, { password: TEST_PASSWORD })).statusCode).toBe(401);
    const v = await signedInVendor();
    // A signed-in session alone.
    const bare = await v.browser.post(PAIR, { nickname: 'Intruder' });
    expect(bare.statusCode).toBe(403);
    expect(bare.body).toContain('Confirm your password and passcode first');
    // A wrong password; the right password without the enrolled device's passcode; a wrong passcode.
    expect((await v.browser.post(CONFIRM, { password: 'Wrong-Password-1' })).json()).toEqual({
      result: 'authenticationFailure',
    });
    expect((await v.browser.post(CONFIRM, { password: TEST_PASSWORD })).json()).toEqual({
      result: 'invalidCode',
    });
    const code = await passcodeOf(v);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await v.browser.post(CONFIRM, { password: TEST_PASSWORD, passcode: wrong })).json()).toEqual({
      result: 'invalidCode',
    });
    expect((await v.browser.post(PAIR, { nickname: 'Intruder' })).statusCode).toBe(403);
    expect(await liveAuthenticators(v.id)).toEqual([]);
    const denied = (await auditActions(t, 'mfa.pair')).filter((e) => e.actor_id === v.id);
    expect(denied.map((e) => e.outcome)).toEqual(['denied', 'denied']);

    // Password and passcode: one phone, and the confirmation is used up by it.
    const deviceKey = await pair(v);
    expect((await v.browser.post(PAIR, { nickname: 'Second' })).statusCode).toBe(403);
    const rows = await liveAuthenticators(v.id);
    expect(rows.map((r) => r.nickname)).toEqual(['Work phone']);
    expect(rows[0]!.key_hash).not.toContain(deviceKey);
    const audit = (await auditActions(t, 'mfa.pair')).filter((e) => e.actor_id === v.id);
    expect(audit.filter((e) => e.outcome === 'success')).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(deviceKey);
    // An expired confirmation (older than 5 minutes) pairs nothing either.
    await confirm(v);
    await t.ctx.db
      .updateTable('sessions')
      .set({ data: sql`jsonb_set(data, '{factorConfirmation,until}', to_jsonb(${Date.now() - 1}::bigint))` })
      .where('account_id', '=', v.id)
      .execute();
    expect((await v.browser.post(PAIR, { nickname: 'Late' })).statusCode).toBe(403);
  });

  it('without any factor the password alone confirms; once a phone is paired, the password alone no longer does', async () => {
    serial += 1;
    const username = `nofactor${serial}`;
    const id = await createAccount(t, { username });
    const browser = await signInAs(t, username);
    expect((await browser.get(LIST)).json()).toEqual({ needsPasscode: false, authenticators: [] });
    expect((await browser.post(CONFIRM, { password: TEST_PASSWORD })).json()).toEqual({ result: 'success' });
    expect((await browser.post(PAIR, { nickname: 'First phone' })).statusCode).toBe(200);
    expect((await browser.get(LIST)).json().needsPasscode).toBe(true);
    expect((await browser.post(CONFIRM, { password: TEST_PASSWORD })).json()).toEqual({
      result: 'invalidCode',
    });
    expect((await browser.post(CONFIRM, { password: TEST_PASSWORD, passcode: '123456' })).json()).toEqual({
      result: 'invalidCode',
    });
    expect((await browser.post(PAIR, { nickname: 'Second phone' })).statusCode).toBe(403);
    expect((await liveAuthenticators(id)).map((r) => r.nickname)).toEqual(['First phone']);
  });

  it('a push approved on a paired phone confirms instead of the passcode; a denied one does not; a wrong password sends none', async () => {
    const v = await signedInVendor();
    const deviceKey = await pair(v, 'Work phone');
    const client = await phone();
    /** Confirms with a push while the phone answers it (with null: nobody looks at the phone). */
    async function confirmByPush(password: string, approve: boolean | null) {
      const answering = (async () => {
        if (approve === null) return;
        for (let i = 0; i < 60; i += 1) {
          const { requests } = (await client.post(STATUS, { deviceKey })).json<{
            requests: { id: string; purpose: string }[];
          }>();
          if (requests[0]) {
            expect(requests[0].purpose).toBe('factor');
            return client.post(ANSWER, { deviceKey, id: requests[0].id, approve });
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const res = await v.browser.post(CONFIRM, { password, push: true });
      await answering;
      return res.json<{ result: string }>().result;
    }
    expect(await confirmByPush('Wrong-Password-1', null)).toBe('authenticationFailure');
    expect((await client.post(STATUS, { deviceKey })).json().requests).toEqual([]);
    expect(await confirmByPush(TEST_PASSWORD, false)).toBe('pushNotApproved');
    expect((await v.browser.post(PAIR, { nickname: 'Second phone' })).statusCode).toBe(403);
    expect(await confirmByPush(TEST_PASSWORD, true)).toBe('success');
    expect((await v.browser.post(PAIR, { nickname: 'Second phone' })).statusCode).toBe(200);
    expect((await liveAuthenticators(v.id)).map((r) => r.nickname)).toEqual(['Work phone', 'Second phone']);
  });

  it('a second phone is added beside the first; removing one is its own confirmed action', async () => {
    const v = await signedInVendor();
    const first = await pair(v, 'First phone');
    const second = await pair(v, 'Second phone');
    const client = await phone();
    expect((await client.post(STATUS, { deviceKey: first })).statusCode).toBe(200);
    expect((await client.post(STATUS, { deviceKey: second })).statusCode).toBe(200);
    const list = (await v.browser.get(LIST)).json<{
      needsPasscode: boolean;
      authenticators: { id: string; nickname: string; isRecent: boolean }[];
    }>();
    expect(list.needsPasscode).toBe(true);
    expect(list.authenticators.map((a) => [a.nickname, a.isRecent])).toEqual([
      ['First phone', true],
      ['Second phone', true],
    ]);
    const firstId = list.authenticators[0]!.id;
    // Removing needs a confirmation of its own, and uses it up.
    expect((await v.browser.post(REMOVE, { id: firstId })).statusCode).toBe(403);
    await confirm(v);
    // Another account's phone (or none) is not found, and the confirmation stays for the right one.
    expect((await v.browser.post(REMOVE, { id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(
      404,
    );
    expect((await v.browser.post(REMOVE, { id: firstId })).json()).toEqual({ success: true });
    expect((await client.post(STATUS, { deviceKey: first })).statusCode).toBe(401);
    expect((await client.post(STATUS, { deviceKey: second })).statusCode).toBe(200);
    expect((await v.browser.get(LIST)).json().authenticators).toHaveLength(1);
    const secondId = (await v.browser.get(LIST)).json().authenticators[0].id;
    expect((await v.browser.post(REMOVE, { id: secondId })).statusCode).toBe(403);
    expect(
      (await auditActions(t, 'mfa.unpair')).filter((e) => e.actor_id === v.id).map((e) => e.outcome),
    ).toEqual(['denied', 'success', 'denied']);
  });

  it('mails the owner at once for every added and removed phone (read in the dev mailbox)', async () => {
    const v = await signedInVendor();
    await pair(v, 'Work phone');
    const added = await mailboxOf(v.email);
    expect(added).toHaveLength(1);
    expect(added[0]!.subject).toContain('new phone added to your account');
    expect(added[0]!.text).toContain(`The phone "Work phone" was added to your account ${v.username}`);
    expect(added[0]!.text).toContain('If this wasn’t you');
    expect(added[0]!.text).toContain('remove the phone under Manage Profile, change your password');
    const id = (await v.browser.get(LIST)).json().authenticators[0].id;
    await confirm(v);
    await v.browser.post(REMOVE, { id });
    const after = await mailboxOf(v.email);
    expect(after).toHaveLength(2);
    expect(after[0]!.subject).toContain('phone removed from your account');
    expect(after[0]!.text).toContain('If this wasn’t you');
  });

  it('a phone paired less than 24 hours ago sees no passcode; an older one does', async () => {
    const v = await signedInVendor();
    const deviceKey = await pair(v);
    const client = await phone();
    const young = (await client.post(STATUS, { deviceKey })).json();
    expect(young).toMatchObject({ username: v.username, nickname: 'Work phone', requests: [] });
    expect(young.passcode).toBeUndefined();
    expect(new Date(young.passcodeFrom).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    await agePhones(v.id, 25);
    const old = (await client.post(STATUS, { deviceKey })).json();
    expect(old.passcode).toMatch(/^\d{6}$/);
    expect(old.passcodeFrom).toBeUndefined();
  });

  it('shows the phone its pending requests, and takes its answer once', async () => {
    const v = await signedInVendor();
    const deviceKey = await pair(v);
    const client = await phone();
    const id = await addPush(v.id);
    const status = await client.post(STATUS, { deviceKey });
    expect(status.json().requests).toEqual([
      { id, purpose: 'reset', clientAddress: '198.51.100.7', createdAt: expect.any(String) },
    ]);
    expect((await client.post(ANSWER, { deviceKey, id, approve: true })).json()).toEqual({ success: true });
    expect((await client.post(ANSWER, { deviceKey, id, approve: false })).statusCode).toBe(409);
    const row = await t.ctx.db
      .selectFrom('push_challenges')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row?.status).toBe('approved');
  });

  it("refuses unknown keys, and another account's requests", async () => {
    const a = await signedInVendor();
    const b = await signedInVendor();
    const aKey = await pair(a);
    const client = await phone();
    expect((await client.post(STATUS, { deviceKey: 'x'.repeat(43) })).statusCode).toBe(401);
    const otherId = await addPush(b.id);
    expect((await client.post(ANSWER, { deviceKey: aKey, id: otherId, approve: true })).statusCode).toBe(409);
  });

  it('the takeover chain (pair with a session alone, push-approved reset, sign-in) stops at its first step', async () => {
    const v = await signedInVendor();
    // Someone holding only the session cookie tries to pair their own phone.
    const paired = await v.browser.post(PAIR, { nickname: 'Attacker phone' });
    expect(paired.statusCode).toBe(403);
    expect(await liveAuthenticators(v.id)).toEqual([]);
    // So no phone of theirs can approve the reset push, nor read a passcode: the reset stays shut.
    const attacker = await phone();
    await attacker.post(IDENTIFY, { username: v.username, email: v.email });
    expect((await attacker.post(PUSH, { username: v.username })).json()).toEqual({ result: 'failure' });
    expect((await attacker.post(OTP, { username: v.username, otp: '123456' })).json().result).not.toBe(
      'success',
    );
    expect(
      (await attacker.post(SET, { username: v.username, newPassword: 'Attacker-Owns-It-42' })).statusCode,
    ).toBe(403);
    // The owner's password still works (the sign-in the attacker wanted never happens with theirs).
    const hash = await t.ctx.db
      .selectFrom('accounts')
      .select('password_changed_at')
      .where('id', '=', v.id)
      .executeTakeFirstOrThrow();
    expect(hash.password_changed_at).toBeNull();
  });
});
