import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { createAccount, csrfOf, passPasswordStep, secretOf, totpCode, type Browser } from './idp-test-kit';
import { signInMessages } from './password-step';

describe.each(testDatabaseKinds)('built-in IdP MFA step on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_MAX_FAILURES: '4' });
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

  async function submit(browser: Browser, page: string, passcode: string, nickname?: string) {
    const fields: Record<string, string> = { csrfToken: csrfOf(page), passcode };
    if (nickname !== undefined) fields.nickname = nickname;
    return browser.post('/idp/mfa', fields);
  }

  /** An account with a confirmed authenticator, enrolled with the code of the step before now. */
  async function enrolledAccount() {
    const account = await createAccount(t.ctx);
    const { browser, mfaPage } = await passPasswordStep(t.app, t.ctx, account.username);
    const secret = secretOf(mfaPage);
    const res = await submit(browser, mfaPage, await totpCode(secret, -1), 'Work phone');
    expect(res.statusCode).toBe(200);
    return { account, secret };
  }

  async function passcodeAttempt(username: string, code: string | Promise<string>) {
    const { browser, mfaPage } = await passPasswordStep(t.app, t.ctx, username);
    expect(mfaPage).toContain('Enter the 6-digit passcode from your authenticator app');
    return submit(browser, mfaPage, await code);
  }

  it('shows enrolment with a QR code image and the secret as grouped text', async () => {
    const account = await createAccount(t.ctx);
    const { mfaPage } = await passPasswordStep(t.app, t.ctx, account.username);
    expect(mfaPage).toMatch(/<img\s+src="data:image\/png;base64,[^"]+"/);
    expect(mfaPage).toMatch(/alt="QR code[^"]+"/);
    expect(mfaPage).toMatch(/id="totp-secret"><code>[A-Z2-7]{4}( [A-Z2-7]{1,4})+<\/code>/);
    expect(mfaPage).toMatch(/<label for="passcode"[^>]*>\s*Passcode\s*<\/label>/);
    expect(mfaPage).toMatch(/<label for="nickname"[^>]*>\s*Device nickname\s*<\/label>/);
    expect(secretOf(mfaPage).length).toBeGreaterThanOrEqual(26);
  });

  it('refuses a wrong enrolment code and stores nothing', async () => {
    const account = await createAccount(t.ctx);
    const { browser, mfaPage } = await passPasswordStep(t.app, t.ctx, account.username);
    const secret = secretOf(mfaPage);
    const wrong = (await totpCode(secret)) === '000000' ? '111111' : '000000';
    const res = await submit(browser, mfaPage, wrong, 'Phone');
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
    const { browser, mfaPage } = await passPasswordStep(t.app, t.ctx, account.username);
    let last = '';
    for (let i = 0; i < 4; i++) last = (await submit(browser, mfaPage, '000000')).body;
    expect(last).toContain(signInMessages.locked);
    const locked = await passPasswordStep(t.app, t.ctx, account.username).catch((error: Error) => error);
    expect(locked).toBeInstanceOf(Error);
  });

  it('refuses a malformed passcode without counting it', async () => {
    const { account } = await enrolledAccount();
    const res = await passcodeAttempt(account.username, '12ab');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('exactly 6 digits');
  });
});
