import { generate } from 'otplib';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { auditActions, outbox } from '../../../test/support/world';
import { newTotpSecret } from '../../identity/mfa/totp';
import { answerPush, pendingPushes } from '../../store/factors';
import { pairAuthenticator } from '../../identity/mfa/push';
import { RECOVERY_KEY } from '../../identity/recovery-binding';

const SEARCH = '/api/user/forgot-user-id/search';
const IDENTIFY = '/api/user/forgot-password/identify';
const BY_CODE = '/api/user/forgot-password/identify-by-code';
const PUSH = '/api/user/forgot-password/ping-push';
const OTP = '/api/user/forgot-password/verify-otp';
const MAIL = '/api/user/forgot-password/send-reset-email';
const SET = '/api/user/forgot-password/set-password';
const NEW_PASSWORD = 'Tr1cky-Zebra-Lamp';
const CODE_PATTERN = /[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/;

describe.each(testDatabaseKinds)('account recovery on %s', (kind) => {
  let t: TestApp;
  let serial = 0;
  let address = 0;

  /** A browser of its own, from an address of its own unless told. */
  async function browser(remoteAddress?: string): Promise<TestClient> {
    const client = new TestClient(t.app);
    address += 1;
    client.remoteAddress = remoteAddress ?? `10.0.${Math.floor(address / 250)}.${(address % 250) + 1}`;
    await client.fetchCsrf();
    return client;
  }

  /** An active vendor with an enrolled TOTP device; returns its names and the device's secret. */
  async function vendor(options: { device?: boolean } = {}) {
    serial += 1;
    const username = `vendor${serial}`;
    const id = await createAccount(t, { username });
    const secret = newTotpSecret();
    if (options.device !== false) {
      await t.ctx.db
        .insertInto('mfa_devices')
        .values({
          account_id: id,
          nickname: `${username}'s phone`,
          secret_encrypted: t.ctx.encryptor.encrypt(secret),
          last_used_step: null,
          confirmed_at: sql<Date>`now()`,
        })
        .execute();
    }
    return { id, username, email: `${username}@example.test`, secret };
  }

  const passcode = (secret: string, offsetSteps = 0) =>
    generate({ secret, epoch: Math.floor(Date.now() / 30_000 + offsetSteps) * 30 });

  async function passwordHash(id: string) {
    const row = await t.ctx.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.password_hash;
  }

  /** A browser that identified the vendor and verified with a passcode. */
  async function verifiedBrowser(v: Awaited<ReturnType<typeof vendor>>) {
    const client = await browser();
    expect((await client.post(IDENTIFY, { username: v.username, email: v.email })).statusCode).toBe(200);
    const res = await client.post(OTP, { username: v.username, otp: await passcode(v.secret) });
    expect(res.json()).toEqual({ result: 'success' });
    return client;
  }

  /** set-password is refused and nothing about the account changes. */
  async function expectRefused(
    client: TestClient,
    v: Awaited<ReturnType<typeof vendor>>,
    username = v.username,
  ) {
    const before = await passwordHash(v.id);
    const mails = (await outbox(t, v.email)).length;
    const res = await client.post(SET, { username, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().errors).toHaveLength(1);
    expect(await passwordHash(v.id)).toBe(before);
    expect(await outbox(t, v.email)).toHaveLength(mails);
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { PUSH_TIMEOUT_SECONDS: '2' });
  });
  beforeEach(async () => {
    await t.ctx.db.deleteFrom('rate_limits').execute();
  });
  afterAll(async () => t?.close());

  describe('forgot user ID', () => {
    it('finds an active or pending account by exact names and email, ignoring case, and mails the owner', async () => {
      const v = await vendor();
      const pending = await createAccount(t, { username: 'pendingpat', status: 'pendingActivation' });
      const client = await browser();
      const res = await client.post(SEARCH, {
        firstName: v.username.toUpperCase(),
        lastName: 'tester',
        email: v.email.toUpperCase(),
      });
      expect(res.json()).toEqual({
        isValid: true,
        user: {
          username: v.username,
          givenName: v.username[0]!.toUpperCase() + v.username.slice(1),
          familyName: 'Tester',
          email: v.email,
        },
      });
      const mail = (await outbox(t, v.email)).at(-1)!;
      expect(mail.template).toBe('user-id-reminder');
      expect(mail.text_body).toContain(v.username);
      expect((await auditActions(t, 'account.user-id-reminder')).length).toBeGreaterThan(0);
      const found = await client.post(SEARCH, {
        firstName: 'Pendingpat',
        lastName: 'Tester',
        email: 'pendingpat@example.test',
      });
      expect(found.json().user.username).toBe('pendingpat');
      expect(pending).toBeTruthy();
    });

    it('does not find disabled accounts, partial matches or other names', async () => {
      await createAccount(t, { username: 'gonegus', status: 'disabled' });
      const v = await vendor();
      const client = await browser();
      for (const body of [
        { firstName: 'Gonegus', lastName: 'Tester', email: 'gonegus@example.test' },
        { firstName: v.username.slice(0, 3), lastName: 'Tester', email: v.email },
        { firstName: 'Someone', lastName: 'Tester', email: v.email },
      ]) {
        expect((await client.post(SEARCH, body)).json()).toEqual({ isValid: false });
      }
    });

    it('refuses bad input with field messages and limits searches per client address', async () => {
      const client = await browser();
      const bad = await client.post(SEARCH, { firstName: '', lastName: 'x', email: 'nope' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('Invalid email format');
      for (let i = 0; i < 10; i += 1) {
        expect(
          (await client.post(SEARCH, { firstName: `N${i}`, lastName: 'T', email: 'a@b.example' })).statusCode,
        ).toBe(200);
      }
      const limited = await client.post(SEARCH, { firstName: 'N', lastName: 'T', email: 'a@b.example' });
      expect(limited.statusCode).toBe(429);
    });
  });

  describe('forgot password', () => {
    it('identify needs the username and the email of one active account', async () => {
      const v = await vendor();
      const client = await browser();
      for (const body of [
        { username: v.username, email: 'other@example.test' },
        { username: 'nobody', email: v.email },
      ]) {
        const res = await client.post(IDENTIFY, body);
        expect(res.json()).toEqual({
          isAccountValid: false,
          isDeviceValid: false,
          invalidReason: 'No active account matches this username and email address',
        });
      }
      const ok = await client.post(IDENTIFY, { username: v.username.toUpperCase(), email: v.email });
      expect(ok.json()).toMatchObject({
        isAccountValid: true,
        isDeviceValid: true,
        device: { nickname: `${v.username}'s phone`, canPush: false },
        account: { username: v.username, email: v.email },
      });
      // Only a paired phone (an authenticator that is not revoked) can receive a push.
      await t.ctx.db
        .insertInto('authenticators')
        .values({ account_id: v.id, nickname: 'Phone', key_hash: `test-${v.id}` })
        .execute();
      const paired = await client.post(IDENTIFY, { username: v.username, email: v.email });
      expect(paired.json().device).toEqual({ nickname: `${v.username}'s phone`, canPush: true });
      const noDevice = await vendor({ device: false });
      const none = await client.post(IDENTIFY, { username: noDevice.username, email: noDevice.email });
      expect(none.json()).toMatchObject({ isAccountValid: true, isDeviceValid: false });
      expect(none.json().device).toBeUndefined();
    });

    it('a passcode verifies the bound account once; set-password then works once and ends everything', async () => {
      const v = await vendor();
      const session = await t.ctx.db
        .insertInto('sessions')
        .values({
          id_hash: `other-${v.id}`,
          account_id: v.id,
          expires_at: sql<Date>`now() + interval '1 hour'`,
          data: '{}',
          client_address: '1.2.3.4',
          user_agent: 'x',
        })
        .returning('id_hash')
        .executeTakeFirstOrThrow();
      const client = await verifiedBrowser(v);
      const weak = await client.post(SET, { username: v.username, newPassword: 'short' });
      expect(weak.statusCode).toBe(400);
      const res = await client.post(SET, { username: v.username, newPassword: NEW_PASSWORD });
      expect(res.json()).toEqual({ success: true });
      const revoked = await t.ctx.db
        .selectFrom('sessions')
        .select('revoked_at')
        .where('id_hash', '=', session.id_hash)
        .executeTakeFirstOrThrow();
      expect(revoked.revoked_at).not.toBeNull();
      expect((await outbox(t, v.email)).at(-1)?.template).toBe('password-changed');
      expect((await auditActions(t, 'password.reset')).some((e) => e.target_id === v.id)).toBe(true);
      // Once.
      await expectRefused(client, v);
    });

    it('set-password is refused without verification, for another username, with another session’s verification, or after it expired', async () => {
      const v = await vendor();
      const other = await vendor();
      // Not identified at all.
      await expectRefused(await browser(), v);
      // Identified but not verified.
      const identified = await browser();
      await identified.post(IDENTIFY, { username: v.username, email: v.email });
      await expectRefused(identified, v);
      // Another browser verified it: this one still has not.
      await verifiedBrowser(v);
      await expectRefused(identified, v);
      // Verified for v, asking for another account.
      const verified = await verifiedBrowser(other);
      await expectRefused(verified, v, v.username);
      await expectRefused(verified, other, v.username);
      // Verification expired.
      await t.ctx.db
        .updateTable('sessions')
        .set({
          data: sql`jsonb_set(data, ${`{${RECOVERY_KEY},verifiedUntil}`}::text[], ${String(Date.now() - 1000)}::jsonb)`,
        })
        .where(sql<string>`data -> ${RECOVERY_KEY} ->> 'accountId'`, '=', other.id)
        .execute();
      await expectRefused(verified, other);
    });

    it('verify-otp works only for the bound account, refuses a reused step and limits wrong passcodes', async () => {
      const v = await vendor();
      const client = await browser();
      const unbound = await client.post(OTP, { username: v.username, otp: await passcode(v.secret) });
      expect(unbound.statusCode).toBe(403);
      await client.post(IDENTIFY, { username: v.username, email: v.email });
      const code = await passcode(v.secret);
      expect((await client.post(OTP, { username: v.username, otp: code })).json()).toEqual({
        result: 'success',
      });
      expect((await client.post(OTP, { username: v.username, otp: code })).json()).toEqual({
        result: 'invalidCode',
      });
      const wrong = code === '000000' ? '111111' : '000000';
      const results: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        results.push((await client.post(OTP, { username: v.username, otp: wrong })).json().result);
      }
      expect(results.slice(0, 3)).toEqual(['invalidCode', 'invalidCode', 'invalidCode']);
      expect(results.at(-1)).toBe('tooManyAttempts');
      // Even the right code of the next step is refused now.
      expect(
        (await client.post(OTP, { username: v.username, otp: await passcode(v.secret, 1) })).json(),
      ).toEqual({
        result: 'tooManyAttempts',
      });
      const bad = await client.post(OTP, { username: v.username, otp: '12345' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('OTP must be exactly 6 digits');
    });

    it('ping-push: no paired authenticator fails; approved by a phone paired today is recentDevice; approved succeeds, denied fails, unanswered times out; repeats hit tooManyAttempts', async () => {
      const v = await vendor();
      const client = await browser();
      await client.post(IDENTIFY, { username: v.username, email: v.email });
      expect((await client.post(PUSH, { username: v.username })).json()).toEqual({ result: 'failure' });
      await t.ctx.db.deleteFrom('rate_limits').execute();
      await t.ctx.db.transaction().execute((tx) => pairAuthenticator(tx, v.id, 'phone'));
      const authenticator = await t.ctx.db
        .selectFrom('authenticators')
        .select(['id', 'account_id'])
        .where('account_id', '=', v.id)
        .executeTakeFirstOrThrow();

      async function pushAnswered(approve: boolean | null) {
        const answer = (async () => {
          if (approve === null) return;
          for (let i = 0; i < 50; i += 1) {
            const [pending] = await pendingPushes(t.ctx.db, v.id);
            if (pending) return answerPush(t.ctx.db, authenticator, pending.id, approve);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        })();
        const res = await client.post(PUSH, { username: v.username });
        await answer;
        return res.json().result as string;
      }
      // A phone paired less than 24 hours ago cannot approve a reset by itself.
      expect(await pushAnswered(true)).toBe('recentDevice');
      await expectRefused(client, v);
      const refusal = (await auditActions(t, 'password.recovery-verify')).filter((e) => e.target_id === v.id);
      expect(refusal.at(-1)).toMatchObject({ outcome: 'failure' });
      expect(refusal.at(-1)!.details).toMatchObject({ method: 'push', result: 'recentDevice' });
      await t.ctx.db.deleteFrom('rate_limits').execute();
      await t.ctx.db
        .updateTable('authenticators')
        .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
        .where('id', '=', authenticator.id)
        .execute();
      expect(await pushAnswered(false)).toBe('failure');
      await expectRefused(client, v);
      expect(await pushAnswered(null)).toBe('timeout');
      expect(await pendingPushes(t.ctx.db, v.id)).toEqual([]);
      expect(await pushAnswered(true)).toBe('success');
      expect((await client.post(PUSH, { username: v.username })).json()).toEqual({
        result: 'tooManyAttempts',
      });
      const res = await client.post(SET, { username: v.username, newPassword: NEW_PASSWORD });
      expect(res.json()).toEqual({ success: true });
    });

    it('a reset code from the mail verifies the session, works once, and not after it expired', async () => {
      const v = await vendor({ device: false });
      const client = await browser();
      expect((await client.post(MAIL, { username: v.username })).statusCode).toBe(403);
      await client.post(IDENTIFY, { username: v.username, email: v.email });
      expect((await client.post(MAIL, { username: v.username })).json()).toEqual({ success: true });
      const mail = (await outbox(t, v.email)).at(-1)!;
      expect(mail.template).toBe('password-reset-link');
      const code = mail.text_body.match(CODE_PATTERN)![0];

      const linkBrowser = await browser();
      const ok = await linkBrowser.post(BY_CODE, { code: code.toLowerCase() });
      expect(ok.json()).toMatchObject({
        isAccountValid: true,
        isCodeValid: true,
        account: { username: v.username },
      });
      expect(
        (await linkBrowser.post(SET, { username: v.username, newPassword: NEW_PASSWORD })).json(),
      ).toEqual({
        success: true,
      });
      const used = await (await browser()).post(BY_CODE, { code });
      expect(used.json()).toEqual({
        isAccountValid: true,
        isCodeValid: false,
        invalidReason: 'The code has already been used',
      });
      expect((await (await browser()).post(BY_CODE, { code: 'AAAA-BBBB-CCCC-DDDD' })).json()).toMatchObject({
        isCodeValid: false,
        invalidReason: 'The code is not valid',
      });

      await client.post(IDENTIFY, { username: v.username, email: v.email });
      await client.post(MAIL, { username: v.username });
      const second = (await outbox(t, v.email)).at(-1)!.text_body.match(CODE_PATTERN)![0];
      await t.ctx.db
        .updateTable('codes')
        .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
        .where('account_id', '=', v.id)
        .where('used_at', 'is', null)
        .execute();
      expect((await (await browser()).post(BY_CODE, { code: second })).json()).toMatchObject({
        isCodeValid: false,
        invalidReason: 'The code has expired',
      });
    });

    it('a code verified in one browser is void once the password was set elsewhere', async () => {
      const v = await vendor();
      const client = await browser();
      await client.post(IDENTIFY, { username: v.username, email: v.email });
      await client.post(MAIL, { username: v.username });
      const code = (await outbox(t, v.email)).at(-1)!.text_body.match(CODE_PATTERN)![0];
      const linkBrowser = await browser();
      await linkBrowser.post(BY_CODE, { code });
      const verified = await verifiedBrowser(v);
      expect((await verified.post(SET, { username: v.username, newPassword: NEW_PASSWORD })).json()).toEqual({
        success: true,
      });
      await expectRefused(linkBrowser, v);
    });

    it("unbound sessions naming an account do not spend its reset mails; the owner's bound session still gets three an hour", async () => {
      const v = await vendor({ device: false });
      for (let i = 0; i < 4; i += 1) {
        expect((await (await browser()).post(MAIL, { username: v.username })).statusCode).toBe(403);
      }
      const owner = await browser();
      await owner.post(IDENTIFY, { username: v.username, email: v.email });
      for (let i = 0; i < 3; i += 1) {
        expect((await owner.post(MAIL, { username: v.username })).json()).toEqual({ success: true });
      }
      const limited = await owner.post(MAIL, { username: v.username });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(await outbox(t, v.email)).toHaveLength(3);
    });

    it('the client address limit holds across accounts', async () => {
      const shared = '192.0.2.77';
      const client = await browser(shared);
      for (let i = 0; i < 10; i += 1) {
        const v = await vendor({ device: false });
        expect(
          (await client.post(IDENTIFY, { username: v.username, email: 'wrong@example.test' })).statusCode,
        ).toBe(200);
      }
      const v = await vendor();
      const limited = await (await browser(shared)).post(IDENTIFY, { username: v.username, email: v.email });
      expect(limited.statusCode).toBe(429);
      // Another address is not affected.
      expect(
        (await (await browser()).post(IDENTIFY, { username: v.username, email: v.email })).statusCode,
      ).toBe(200);
    });
  });
});
