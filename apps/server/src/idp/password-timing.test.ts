// The built-in IdP's password step with the hospital's directory (IDENTITY_STORE=ldap, a real slapd):
// a vendor's password is a bind there, an employee's an argon2id hash here, an unknown username a
// dummy argon2id verify. So that the answer's time does not tell them apart, every attempt runs a
// directory check (its own, or a stand-in that touches no account) beside an argon2id verify.
// Measured without this (bench/password-timing.ts): a vendor's wrong password answered in 3.1 ms,
// an employee's and an unknown username in 6.6-6.7 ms.
// This test checks which directory work each attempt does; the times are bench/password-timing.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, TEST_PASSWORD } from '../../test/support/sign-in';
import { slapdInstalled, startSlapd, type Slapd } from '../../test/support/slapd';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { checkPassword, signInMessages } from './password-step';

if (!slapdInstalled) console.warn('SKIPPED password-timing.test.ts: needs slapd (apt-get install -y slapd)');

const VENDOR_PASSWORD = 'Directory-Held-Password-42';

describe.skipIf(!slapdInstalled)('the password step beside the directory', () => {
  let slapd: Slapd;
  let t: TestApp;
  const calls: string[] = [];
  let attempt = 0;

  beforeAll(async () => {
    slapd = await startSlapd();
    t = await createTestApp('pglite', slapd.env);
    const store = t.ctx.identityStore;
    // The store as the step sees it, noting each directory check it asks for.
    t.ctx.identityStore = new Proxy(store, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (property === 'checkPassword' || property === 'rehearsePasswordCheck') calls.push(property);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    await createAccount(t, { username: 'dirvendor' });
    await store.ensureAccount({
      username: 'dirvendor',
      givenName: 'Dana',
      familyName: 'Ray',
      email: 'd@acme.example',
    });
    await store.setPassword('dirvendor', VENDOR_PASSWORD);
    await createAccount(t, { username: 'hereemployee', type: 'employee' });
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.close();
  });

  /** One attempt from its own address (no lockout between them); the directory checks it asked for. */
  const attemptAs = async (username: string, password: string) => {
    calls.length = 0;
    attempt += 1;
    const outcome = await checkPassword(t.ctx, { username, password, clientAddress: `10.9.0.${attempt}` });
    return { outcome, calls: [...calls] };
  };

  it('a vendor: its own bind, and no stand-in in the directory (its stand-in is argon2id)', async () => {
    const wrong = await attemptAs('dirvendor', 'Not-The-Password-1');
    expect(wrong.outcome).toEqual({ ok: false, message: signInMessages.generic });
    expect(wrong.calls).toEqual(['checkPassword']);
    const right = await attemptAs('dirvendor', VENDOR_PASSWORD);
    expect(right.outcome.ok).toBe(true);
    expect(right.calls).toEqual(['checkPassword']);
  });

  it('an unknown username and an employee: a stand-in directory check, refused, beside argon2id', async () => {
    const unknown = await attemptAs('nobodyhere', 'Not-The-Password-1');
    expect(unknown).toEqual({
      outcome: { ok: false, message: signInMessages.generic },
      calls: ['rehearsePasswordCheck'],
    });
    const employeeWrong = await attemptAs('hereemployee', 'Not-The-Password-1');
    expect(employeeWrong).toEqual({
      outcome: { ok: false, message: signInMessages.generic },
      calls: ['rehearsePasswordCheck'],
    });
    const employeeRight = await attemptAs('hereemployee', TEST_PASSWORD);
    expect(employeeRight.outcome.ok).toBe(true);
    expect(employeeRight.calls).toEqual(['rehearsePasswordCheck']);
  });

  it('the directory down: every refusal says sign-in is unavailable, as a vendor’s; a known password still passes', async () => {
    await slapd.stop();
    try {
      expect((await attemptAs('nobodyhere', 'Not-The-Password-1')).outcome).toEqual({
        ok: false,
        message: signInMessages.unavailable,
      });
      expect((await attemptAs('hereemployee', 'Not-The-Password-1')).outcome).toEqual({
        ok: false,
        message: signInMessages.unavailable,
      });
      expect((await attemptAs('hereemployee', TEST_PASSWORD)).outcome.ok).toBe(true);
      expect((await attemptAs('dirvendor', VENDOR_PASSWORD)).outcome).toEqual({
        ok: false,
        message: signInMessages.unavailable,
      });
    } finally {
      await slapd.start();
    }
  });

  it('the stand-in binds as no account: a vendor who gave its password again still signs in', async () => {
    for (let i = 0; i < 5; i++) await t.ctx.identityStore.rehearsePasswordCheck(VENDOR_PASSWORD);
    expect((await attemptAs('dirvendor', VENDOR_PASSWORD)).outcome.ok).toBe(true);
  });
});
