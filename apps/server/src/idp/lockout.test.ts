import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createIdpAccount, csrfOf, PASSWORD, startSignIn } from '../../test/support/idp-kit';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { MAX_LOCKOUT_MINUTES } from '../identity/lockout';
import { signInMessages } from './password-step';

let addressCounter = 0;
/** A client address no other test uses, so each test starts with a fresh per-address count. */
function freshAddress(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

describe.each(testDatabaseKinds)('built-in IdP lockout on %s', (kind) => {
  const ACCOUNT_MAX = 5;
  const ADDRESS_MAX = 20;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      SIGNIN_MAX_FAILURES: String(ACCOUNT_MAX),
      SIGNIN_ADDRESS_MAX_FAILURES: String(ADDRESS_MAX),
      SIGNIN_LOCKOUT_MINUTES: '10',
    });
  });
  afterAll(async () => t?.close());

  async function attempt(username: string, password: string, address: string) {
    const { client, loginPage } = await startSignIn(t, undefined, address);
    return client.postForm('/idp/login', { csrfToken: csrfOf(loginPage), username, password });
  }

  /** The page's answer without what differs per session (the CSRF token). */
  const answer = (body: string) => body.replace(/value="[^"]*"/g, '');

  /** Passwords checked and refused: for one account, or from one client address. */
  async function passwordChecks(of: { targetId: string } | { address: string }): Promise<number> {
    let query = t.ctx.db
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'signin.password')
      .where('outcome', '=', 'failure');
    query =
      'targetId' in of
        ? query.where('target_id', '=', of.targetId)
        : query.where('client_address', '=', of.address);
    return (await query.execute()).length;
  }

  async function lockedUntil(accountId: string): Promise<number> {
    const row = await t.ctx.db
      .selectFrom('rate_limits')
      .select('locked_until')
      .where('key', '=', `signin-lock:${accountId}`)
      .executeTakeFirstOrThrow();
    return new Date(row.locked_until ?? 0).getTime();
  }

  async function endLockout(accountId: string) {
    await t.ctx.db
      .updateTable('rate_limits')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('key', '=', `signin-lock:${accountId}`)
      .execute();
  }

  async function lockoutMails(email: string) {
    return t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', email)
      .where('template', '=', 'signin-locked')
      .execute();
  }

  it('answers known and unknown usernames alike once an address has failed too often', async () => {
    const address = freshAddress();
    const known = await createIdpAccount(t);
    for (let i = 0; i < ADDRESS_MAX; i++) {
      const res = await attempt(`nobody-${i}-${Date.now()}`, 'Wrong-1234', address);
      expect(res.body).toContain(signInMessages.generic);
    }
    const unknown = await attempt('nobody-else', 'Wrong-1234', address);
    const knownWrong = await attempt(known.username, 'Wrong-1234', address);
    const knownRight = await attempt(known.username, PASSWORD, address);
    for (const res of [unknown, knownWrong, knownRight]) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain(signInMessages.locked);
    }
    expect(answer(knownWrong.body)).toBe(answer(unknown.body).replace('nobody-else', known.username));
    // The account itself is not locked: from elsewhere its owner signs in.
    expect((await attempt(known.username, PASSWORD, freshAddress())).statusCode).toBe(303);
  });

  it('stops one address spraying a password across many accounts', async () => {
    const address = freshAddress();
    const accounts = [];
    for (let i = 0; i <= ADDRESS_MAX; i++) accounts.push(await createIdpAccount(t));
    for (const account of accounts.slice(0, ADDRESS_MAX)) {
      expect((await attempt(account.username, 'Spring-2026!', address)).body).toContain(
        signInMessages.generic,
      );
    }
    const last = accounts[ADDRESS_MAX]!;
    const checksBefore = await passwordChecks({ targetId: last.id });
    // Even the right password of the next account is not checked from this address any more.
    const res = await attempt(last.username, PASSWORD, address);
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain(signInMessages.locked);
    expect(await passwordChecks({ targetId: last.id })).toBe(checksBefore);
  });

  it('counts attempts before checking them: 30 concurrent guesses at one account get at most the limit checked', async () => {
    const account = await createIdpAccount(t);
    // One session, as a script would reuse it; a generous address limit isolates the account's.
    const { client, loginPage } = await startSignIn(t, undefined, freshAddress());
    const csrfToken = csrfOf(loginPage);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_v, i) =>
        client.postForm('/idp/login', { csrfToken, username: account.username, password: `Guess-${i}` }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(results.map(() => 401));
    expect(await passwordChecks({ targetId: account.id })).toBe(ACCOUNT_MAX);
    expect(results.filter((r) => r.body.includes(signInMessages.locked)).length).toBeGreaterThanOrEqual(
      30 - ACCOUNT_MAX,
    );
  });

  it('counts attempts before checking them: 30 concurrent guesses across names get at most the address limit checked', async () => {
    // Counted by this test's own address: a slow earlier test cannot add to it.
    const address = freshAddress();
    const { client, loginPage } = await startSignIn(t, undefined, address);
    const csrfToken = csrfOf(loginPage);
    const stamp = Date.now();
    await Promise.all(
      Array.from({ length: 30 }, (_v, i) =>
        client.postForm('/idp/login', { csrfToken, username: `spray-${stamp}-${i}`, password: 'Guess-1' }),
      ),
    );
    expect(await passwordChecks({ address })).toBe(ADDRESS_MAX);
  });

  it(`caps every lockout at ${MAX_LOCKOUT_MINUTES} minutes however often it recurs`, async () => {
    const account = await createIdpAccount(t);
    const lengths: number[] = [];
    for (let round = 0; round < 3; round++) {
      const address = freshAddress();
      for (let i = 0; i < ACCOUNT_MAX; i++) await attempt(account.username, 'Wrong-1', address);
      lengths.push((await lockedUntil(account.id)) - Date.now());
      await endLockout(account.id);
    }
    const minute = 60_000;
    // 10 minutes, then 20 capped to 15, then 15 again.
    expect(lengths[0]).toBeGreaterThan(9 * minute);
    expect(lengths[0]).toBeLessThanOrEqual(10 * minute);
    for (const length of lengths.slice(1)) {
      expect(length).toBeGreaterThan(14 * minute);
      expect(length).toBeLessThanOrEqual(MAX_LOCKOUT_MINUTES * minute);
    }
  });

  it('mails the owner when a lockout starts, at most once an hour', async () => {
    const account = await createIdpAccount(t);
    const email = `${account.username}@example.test`;
    const lockOut = async () => {
      const address = freshAddress();
      for (let i = 0; i < ACCOUNT_MAX; i++) await attempt(account.username, 'Wrong-1', address);
      await endLockout(account.id);
    };
    await lockOut();
    const first = await lockoutMails(email);
    expect(first).toHaveLength(1);
    expect(first[0]!.subject).toMatch(/sign-in locked/);
    expect(first[0]!.text_body).toContain(account.username);
    expect(first[0]!.text_body).toContain('locked for 10 minutes');
    await lockOut();
    expect(await lockoutMails(email)).toHaveLength(1);
    // An hour later the next lockout is mailed again.
    await t.ctx.db
      .updateTable('rate_limits')
      .set({ window_ends_at: new Date(Date.now() - 1000) })
      .where('key', '=', `signin-lockout-mail:${account.id}`)
      .execute();
    await lockOut();
    expect(await lockoutMails(email)).toHaveLength(2);
  });
});
