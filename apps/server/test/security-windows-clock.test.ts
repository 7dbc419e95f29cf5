import { generate } from 'otplib';
import { FACTOR_CONFIRMATION_MINUTES } from '@pra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../src/platform/clock';
import { LOGIN_STATE_MINUTES } from '../src/idp/login-state';
import { RECOVERY_VERIFIED_MS } from '../src/identity/recovery-binding';
import { testDatabaseKinds } from './support/databases';
import { startSignIn } from './support/idp-kit';
import { createAccount, enrollTotpDevice, signInAs, TEST_PASSWORD } from './support/sign-in';
import { createTestApp, TestClient, type TestApp } from './support/test-app';

// The security windows kept in a session (a sign-in at the built-in IdP in progress, the owner's
// confirmation before an authenticator change, a verified account recovery) read the one clock,
// as the governance windows do: moving the app's clock ends them, without waiting.
describe.each(testDatabaseKinds)('security windows on the one clock, on %s', (kind) => {
  let t: TestApp;
  let clock: TestClock;
  let serial = 0;
  const MINUTE = 60_000;

  beforeAll(async () => {
    clock = new TestClock();
    t = await createTestApp(kind, {}, { clock });
  });
  afterAll(async () => t?.close());

  it(`a sign-in at the built-in IdP expires ${LOGIN_STATE_MINUTES} minutes after it started, by the app's clock`, async () => {
    const kept = await startSignIn(t);
    const expired = await startSignIn(t);
    expect(kept.loginPage).toContain('Sign In');
    clock.advance(LOGIN_STATE_MINUTES * MINUTE - MINUTE);
    expect((await kept.client.get('/idp/login')).statusCode).toBe(200);
    clock.advance(2 * MINUTE);
    const late = await expired.client.get('/idp/login');
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('Sign-in expired');
  });

  it(`the owner's confirmation before an authenticator change lasts ${FACTOR_CONFIRMATION_MINUTES} minutes by the app's clock`, async () => {
    const pairAfter = async (ms: number) => {
      serial += 1;
      const username = `windowowner${serial}`;
      await createAccount(t, { username });
      const browser = await signInAs(t, username);
      // No factor yet: the password alone confirms.
      expect(
        (await browser.post('/api/user/authenticator/confirm', { password: TEST_PASSWORD })).json(),
      ).toEqual({
        result: 'success',
      });
      clock.advance(ms);
      return (await browser.post('/api/user/authenticator/pair', { nickname: 'Phone' })).statusCode;
    };
    expect(await pairAfter(FACTOR_CONFIRMATION_MINUTES * MINUTE - MINUTE)).toBe(200);
    expect(await pairAfter(FACTOR_CONFIRMATION_MINUTES * MINUTE + MINUTE)).toBe(403);
  });

  it(`a verified account recovery lasts ${RECOVERY_VERIFIED_MS / MINUTE} minutes by the app's clock`, async () => {
    const setPasswordAfter = async (ms: number) => {
      serial += 1;
      const username = `windowrecovery${serial}`;
      const id = await createAccount(t, { username });
      const secret = await enrollTotpDevice(t, id);
      const browser = new TestClient(t.app);
      browser.remoteAddress = `10.9.0.${serial}`;
      await browser.fetchCsrf();
      const identify = { username, email: `${username}@example.test` };
      expect((await browser.post('/api/user/forgot-password/identify', identify)).statusCode).toBe(200);
      // A passcode is the phone's: the wall clock's, whatever the app's clock says.
      const otp = await generate({ secret });
      expect((await browser.post('/api/user/forgot-password/verify-otp', { username, otp })).json()).toEqual({
        result: 'success',
      });
      clock.advance(ms);
      const set = await browser.post('/api/user/forgot-password/set-password', {
        username,
        newPassword: 'Tr1cky-Zebra-Lamp',
      });
      return set.statusCode;
    };
    expect(await setPasswordAfter(RECOVERY_VERIFIED_MS - MINUTE)).toBe(200);
    expect(await setPasswordAfter(RECOVERY_VERIFIED_MS + MINUTE)).toBe(403);
  });
});
