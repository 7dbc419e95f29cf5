import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import {
  createIdpAccount,
  csrfOf,
  passPasswordStep,
  PASSWORD,
  secretOf,
  startSignIn,
  totpCode,
} from '../../test/support/idp-kit';
import { createTestApp, type TestClient, type TestApp } from '../../test/support/test-app';
import { signInMessages } from './password-step';

describe.each(testDatabaseKinds)('built-in IdP MFA step on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_MAX_FAILURES: '4', SIGNIN_ADDRESS_MAX_FAILURES: '1000' });
  });
  afterAll(async () => t?.close());

  // Codes are computed a step or two away from "now": pin the clock mid-step (letting it run on)
  // so that a test never straddles a 30-second boundary.
  beforeEach(() => {
    const midStep = Math.floor(Date.now() / 30_000) * 30_000 + 15_000;
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(midStep);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function submit(client: TestClient, page: string, passcode: string, nickname?: string) {
    const fields: Record<string, string> = { csrfToken: csrfOf(page), passcode };
    if (nickname !== undefined) fields.nickname = nickname;
    return client.postForm('/idp/mfa', fields);
  }

  /** An account with a confirmed authenticator, enrolled with the code of the step before now. */
  async function enrolledAccount() {
    const account = await createIdpAccount(t);
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    const secret = secretOf(mfaPage);
    const res = await submit(client, mfaPage, await totpCode(secret, -1), 'Work phone');
    expect(res.statusCode).toBe(200);
    return { account, secret };
  }

  async function passcodeAttempt(username: string, code: string | Promise<string>) {
    const { client, mfaPage } = await passPasswordStep(t, username);
    expect(mfaPage).toContain('Enter the 6-digit passcode from your authenticator app');
    return submit(client, mfaPage, await code);
  }

  it('shows enrolment with a QR code image and the secret as grouped text', async () => {
    const account = await createIdpAccount(t);
    const { mfaPage } = await passPasswordStep(t, account.username);
    expect(mfaPage).toMatch(/<img\s+src="data:image\/png;base64,[^"]+"/);
    expect(mfaPage).toMatch(/alt="QR code[^"]+"/);
    // Each group of four unbreakable, so the secret wraps between whole groups only.
    expect(mfaPage).toMatch(
      /id="totp-secret"><code><span class="idp-secret-group">[A-Z2-7]{4}<\/span>( <span class="idp-secret-group">[A-Z2-7]{1,4}<\/span>)+<\/code>/,
    );
    // The portal's header: its logo, linking to the landing page.
    expect(mfaPage).toMatch(
      /<a href="\/home" class="idp-brand"\s*><img src="\/logo.svg" width="250" height="80" alt="PRA Portal"/,
    );
    expect(mfaPage).toMatch(/<label for="passcode"[^>]*>\s*Passcode\s*<\/label>/);
    expect(mfaPage).toMatch(/<label for="nickname"[^>]*>\s*Device nickname\s*<\/label>/);
    expect(secretOf(mfaPage).length).toBeGreaterThanOrEqual(26);
  });

  it('refuses a wrong enrolment code and stores nothing', async () => {
    const account = await createIdpAccount(t);
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    const secret = secretOf(mfaPage);
    const wrong = (await totpCode(secret)) === '000000' ? '111111' : '000000';
    const res = await submit(client, mfaPage, wrong, 'Phone');
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain(signInMessages.badPasscode);
    expect(secretOf(res.body)).toBe(secret);
    const devices = await t.ctx.db
      .selectFrom('mfa_devices')
      .selectAll()
      .where('account_id', '=', account.id)
      .execute();
    expect(devices).toHaveLength(0);
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .select('action')
      .where('target_id', '=', account.id)
      .execute();
    expect(audit.map((e) => e.action)).toContain('signin.mfa');
  });

  it('stores the confirmed device with its seed encrypted and the step used', async () => {
    const { account, secret } = await enrolledAccount();
    const device = await t.ctx.db
      .selectFrom('mfa_devices')
      .selectAll()
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(device.nickname).toBe('Work phone');
    expect(device.confirmed_at).not.toBeNull();
    expect(device.secret_encrypted).not.toContain(secret);
    expect(t.ctx.encryptor.decrypt(device.secret_encrypted)).toBe(secret);
    expect(Number(device.last_used_step)).toBe(Math.floor(Date.now() / 30_000) - 1);
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'mfa.enrol')
      .execute();
    expect(audit.some((e) => e.actor_id === account.id && e.outcome === 'success')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('accepts the current step, and one step either side', async () => {
    for (const steps of [0, 1]) {
      const { account, secret } = await enrolledAccount();
      expect((await passcodeAttempt(account.username, totpCode(secret, steps))).statusCode).toBe(200);
    }
    // -1 is the step the enrolment used: a fresh device is enrolled with it, then -1 is refused
    // as reused; so check -1 on a device whose last step is older.
    const { account, secret } = await enrolledAccount();
    await t.ctx.db
      .updateTable('mfa_devices')
      .set({ last_used_step: 1 })
      .where('account_id', '=', account.id)
      .execute();
    expect((await passcodeAttempt(account.username, totpCode(secret, -1))).statusCode).toBe(200);
  });

  it('refuses codes two steps away', async () => {
    const { account, secret } = await enrolledAccount();
    for (const steps of [-2, 2]) {
      const res = await passcodeAttempt(account.username, totpCode(secret, steps));
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain(signInMessages.badPasscode);
    }
  });

  it('refuses a step already used', async () => {
    const { account, secret } = await enrolledAccount();
    const code = await totpCode(secret);
    expect((await passcodeAttempt(account.username, code)).statusCode).toBe(200);
    const again = await passcodeAttempt(account.username, code);
    expect(again.statusCode).toBe(401);
    // The enrolment's own step (-1) is used too.
    expect((await passcodeAttempt(account.username, totpCode(secret, -1))).statusCode).toBe(401);
  });

  it('counts wrong passcodes toward the lockout', async () => {
    const { account } = await enrolledAccount();
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    let last = '';
    for (let i = 0; i < 4; i++) last = (await submit(client, mfaPage, '000000')).body;
    expect(last).toContain(signInMessages.locked);
    // Even the right password is refused now.
    const { client: next, loginPage } = await startSignIn(t);
    const locked = await next.postForm('/idp/login', {
      csrfToken: csrfOf(loginPage),
      username: account.username,
      password: PASSWORD,
    });
    expect(locked.statusCode).toBe(401);
    expect(locked.body).toContain(signInMessages.locked);
  });

  it('ends the run of failures when a sign-in completes, and gives back its attempt', async () => {
    const { account, secret } = await enrolledAccount();
    const failures = () =>
      t.ctx.db
        .selectFrom('rate_limits')
        .select('hits')
        .where('key', '=', `signin-lock:${account.id}`)
        .executeTakeFirst();
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    for (let i = 0; i < 3; i++) expect((await submit(client, mfaPage, '000000')).statusCode).toBe(401);
    expect((await failures())?.hits).toBe(3);
    expect((await submit(client, mfaPage, await totpCode(secret, 1))).statusCode).toBe(200);
    expect(await failures()).toBeUndefined();
    // Three more wrong passcodes do not lock: the earlier three no longer count.
    const { client: again, mfaPage: page } = await passPasswordStep(t, account.username);
    for (let i = 0; i < 3; i++) {
      const res = await submit(again, page, '000000');
      expect(res.body).toContain(signInMessages.badPasscode);
    }
  });

  it('refuses a malformed passcode without counting it', async () => {
    const { account } = await enrolledAccount();
    const res = await passcodeAttempt(account.username, '12ab');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('exactly 6 digits');
  });
});
