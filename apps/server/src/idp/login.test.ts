import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createIdpAccount, csrfOf, PASSWORD, startSignIn } from '../../test/support/idp-kit';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { signInMessages } from './password-step';

const MAX_FAILURES = 3;

describe.each(testDatabaseKinds)('built-in IdP password step on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      SIGNIN_MAX_FAILURES: String(MAX_FAILURES),
      // Every test here comes from one address; lockout.test.ts tests the per-address limit.
      SIGNIN_ADDRESS_MAX_FAILURES: '1000',
      HOSPITAL_NAME: 'St. Example <Hospital>',
    });
  });
  afterAll(async () => t?.close());

  async function attempt(username: string, password: string) {
    const { client, loginPage } = await startSignIn(t);
    return client.postForm('/idp/login', { csrfToken: csrfOf(loginPage), username, password });
  }

  it('shows a login page for the hospital with labelled fields and a CSRF field', async () => {
    const { loginPage: page } = await startSignIn(t);
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<title>Sign in to PRA Portal | St. Example &lt;Hospital&gt;</title>');
    expect(page.match(/<h1/g)).toHaveLength(1);
    expect(page).toMatch(/<label for="username"[^>]*>\s*Username\s*<\/label>/);
    expect(page).toMatch(/<input\s+id="username"/);
    expect(page).toMatch(/<label for="password"[^>]*>\s*Password\s*<\/label>/);
    expect(page).toMatch(/<input\s+id="password"\s+name="password"\s+type="password"/);
    expect(page).toMatch(/>\s*Sign In\s*<\/button>/);
    expect(page).not.toMatch(/<script(?![^>]*src=)/);
    expect(page).not.toContain('<style');
  });

  it('answers a login page without a started sign-in with an expiry page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/idp/login' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Sign-in expired');
  });

  it('refuses a post without or with a wrong CSRF token with 403', async () => {
    const account = await createIdpAccount(t);
    const { client } = await startSignIn(t);
    const missing = await client.postForm('/idp/login', { username: account.username, password: PASSWORD });
    expect(missing.statusCode).toBe(403);
    const wrong = await client.postForm('/idp/login', {
      csrfToken: 'x'.repeat(43),
      username: account.username,
      password: PASSWORD,
    });
    expect(wrong.statusCode).toBe(403);
  });

  it('gives the same generic message for a wrong password, unknown user, disabled and pending accounts', async () => {
    const active = await createIdpAccount(t);
    const disabled = await createIdpAccount(t, 'disabled');
    const pending = await createIdpAccount(t, 'pendingActivation');
    const results = [
      await attempt(active.username, 'Wrong-password-123'),
      await attempt('nobody-here', PASSWORD),
      await attempt(disabled.username, PASSWORD),
      await attempt(pending.username, PASSWORD),
    ];
    for (const res of results) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain(signInMessages.generic);
    }
  });

  it('records failures in the audit log without the password', async () => {
    const account = await createIdpAccount(t);
    await attempt(account.username, 'Secret-Guess-4242');
    const events = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', account.id)
      .execute();
    expect(events.map((e) => [e.action, e.outcome])).toContainEqual(['signin.password', 'failure']);
    expect(JSON.stringify(events)).not.toContain('Secret-Guess-4242');
  });

  it('locks the account after repeated failures and refuses even the right password while locked', async () => {
    const account = await createIdpAccount(t);
    for (let i = 1; i < MAX_FAILURES; i++) {
      expect((await attempt(account.username, `wrong-${i}`)).body).toContain(signInMessages.generic);
    }
    expect((await attempt(account.username, 'wrong-last')).body).toContain(signInMessages.locked);
    const locked = await attempt(account.username, PASSWORD);
    expect(locked.statusCode).toBe(401);
    expect(locked.body).toContain(signInMessages.locked);
    const row = await t.ctx.db
      .selectFrom('rate_limits')
      .selectAll()
      .where('key', '=', `signin-lock:${account.id}`)
      .executeTakeFirstOrThrow();
    expect(new Date(row.locked_until ?? 0).getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
    const lockouts = await t.ctx.db
      .selectFrom('audit_events')
      .select('action')
      .where('target_id', '=', account.id)
      .execute();
    expect(lockouts.map((e) => e.action)).toContain('signin.lockout');
  });

  it('doubles the lockout each further time (up to the 15-minute cap, lockout.test.ts)', async () => {
    const account = await createIdpAccount(t);
    const key = `signin-lock:${account.id}`;
    for (let i = 0; i < MAX_FAILURES; i++) await attempt(account.username, 'wrong');
    // End the first lockout early, as if its time had passed.
    await t.ctx.db
      .updateTable('rate_limits')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('key', '=', key)
      .execute();
    for (let i = 0; i < MAX_FAILURES; i++) await attempt(account.username, 'wrong');
    const row = await t.ctx.db
      .selectFrom('rate_limits')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(new Date(row.locked_until ?? 0).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
  });

  it('locks unknown usernames the same way, so a lockout reveals nothing', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await attempt('ghost-user', 'wrong');
    expect((await attempt('ghost-user', 'wrong')).body).toContain(signInMessages.locked);
  });

  it('continues to the MFA step with the right password', async () => {
    const account = await createIdpAccount(t);
    const res = await attempt(account.username.toUpperCase(), PASSWORD);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/idp/mfa');
  });
});
