import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { TestClock } from '../platform/clock';
import { testDatabaseKinds } from '../../test/support/databases';
import {
  createIdpAccount,
  csrfOf,
  inputValue,
  passPasswordStep,
  PASSWORD,
  secretOf,
  startSignIn,
  totpCode,
} from '../../test/support/idp-kit';
import { SoftAuthenticator, type Tamper } from '../../test/support/soft-authenticator';
import { createTestApp, TestClient, type TestApp } from '../../test/support/test-app';
import { createServiceProvider } from '../identity/saml-sp';
import { addOrganization, auditActions, outbox } from '../../test/support/world';
import {
  MAX_CREDENTIALS,
  registrationOptions,
  removeCredential,
  verifyRegistration,
  webauthnMessages,
} from '../identity/mfa/webauthn';
import { keyRequiredMessage, noKeyMessage } from './mfa-routes';
import { PHISHING_RESISTANT_CLASS, REFEDS_MFA } from './saml-response';
import { listCredentials } from '../store/webauthn';

const INFOSEC = 'infosec@hospital.test';

describe.each(testDatabaseKinds)('security keys and passkeys at the built-in IdP on %s', (kind) => {
  let t: TestApp;
  let origin: string;
  const clock = new TestClock();
  beforeAll(async () => {
    t = await createTestApp(kind, { INFOSEC_EMAIL: INFOSEC, SIGNIN_ADDRESS_MAX_FAILURES: '1000' }, { clock });
    origin = new URL(t.ctx.config.publicUrl).origin;
  });
  afterAll(async () => t?.close());

  async function jsonPost<T>(client: TestClient, path: string, csrfToken: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: path,
      payload: { csrfToken },
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader },
    });
    return { status: res.statusCode, body: res.json<T & { message?: string }>() };
  }

  /** Password step, then a key enrolled at first sign-in; the client stands on "Security key added". */
  async function enrolledWithKey(authenticator = new SoftAuthenticator(origin)) {
    const account = await createIdpAccount(t);
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    const csrf = csrfOf(mfaPage);
    const { body } = await jsonPost<{ options: PublicKeyCredentialCreationOptionsJSON }>(
      client,
      '/idp/mfa/webauthn/register-options',
      csrf,
    );
    const res = await client.postForm('/idp/mfa/webauthn/register', {
      csrfToken: csrf,
      credential: JSON.stringify(authenticator.create(body.options)),
      nickname: 'Blue key',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Security key added');
    return { account, client, csrf, authenticator };
  }

  /** A new sign-in up to the MFA page, the assertion options fetched. */
  async function keyOptions(username: string) {
    const { client, mfaPage } = await passPasswordStep(t, username);
    const csrf = csrfOf(mfaPage);
    const { status, body } = await jsonPost<{ options: PublicKeyCredentialRequestOptionsJSON }>(
      client,
      '/idp/mfa/webauthn/options',
      csrf,
    );
    expect(status).toBe(200);
    return { client, csrf, mfaPage, options: body.options };
  }

  async function assert(
    authenticator: SoftAuthenticator,
    username: string,
    tamper: Tamper = {},
    signer = authenticator,
  ) {
    const { client, csrf, options } = await keyOptions(username);
    const answer = signer.get(options, tamper);
    const res = await client.postForm('/idp/mfa/webauthn', {
      csrfToken: csrf,
      credential: JSON.stringify(answer),
    });
    return { res, client, csrf, answer, options };
  }

  it('enrols a key at first sign-in (UV required, RP ID from PUBLIC_URL), mails and audits it, then continues to the SP', async () => {
    const account = await createIdpAccount(t);
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    expect(mfaPage).toContain('Use a security key or passkey');
    expect(mfaPage).toContain('Add Security Key or Passkey');
    expect(mfaPage).toContain('src="/idp/assets/webauthn.js"');
    // Disabled until the helper drives the form: a click before would post it without a credential.
    expect(mfaPage).toMatch(
      /<button type="submit" class="[^"]*" disabled>Add Security Key or Passkey<\/button>/,
    );
    const csrf = csrfOf(mfaPage);
    const { body } = await jsonPost<{ options: PublicKeyCredentialCreationOptionsJSON }>(
      client,
      '/idp/mfa/webauthn/register-options',
      csrf,
    );
    expect(body.options.rp).toEqual({ name: 'PRA Portal', id: new URL(origin).hostname });
    expect(body.options.authenticatorSelection?.userVerification).toBe('required');
    expect(body.options.attestation).toBe('none');
    expect(body.options.user.name).toBe(account.username);
    expect(body.options.user.id).not.toContain(account.username);
    const authenticator = new SoftAuthenticator(origin);
    const added = await client.postForm('/idp/mfa/webauthn/register', {
      csrfToken: csrf,
      credential: JSON.stringify(authenticator.create(body.options)),
      nickname: 'Blue key',
    });
    expect(added.statusCode).toBe(200);
    expect(added.body).toContain('Add another one (recommended)');
    const stored = await listCredentials(t.ctx.db, account.id);
    expect(stored.map((c) => [c.nickname, c.counter, c.device_type])).toEqual([
      ['Blue key', 1, 'singleDevice'],
    ]);
    const mails = await outbox(t, `${account.username}@example.test`);
    expect(mails.map((m) => m.subject)).toContain('A security key or passkey was added to your PRA account');
    const audit = (await auditActions(t, 'passkey.register')).filter((e) => e.target_id === account.id);
    expect(audit.map((e) => e.outcome)).toEqual(['success']);
    expect(JSON.stringify(audit[0]?.details)).not.toContain(
      authenticator.credentials[0]?.id.toString('base64url'),
    );

    const done = await client.postForm('/idp/mfa/continue', { csrfToken: csrf });
    expect(done.statusCode).toBe(200);
    expect(inputValue(done.body, 'SAMLResponse')).toBeTruthy();
  });

  it('signs in with the key, offered first and alone when the account has no authenticator app', async () => {
    const { account, authenticator } = await enrolledWithKey();
    const { mfaPage } = await passPasswordStep(t, account.username);
    expect(mfaPage).toContain('Use Security Key or Passkey');
    expect(mfaPage).not.toContain('name="passcode"');
    const { res } = await assert(authenticator, account.username);
    expect(res.statusCode).toBe(200);
    expect(inputValue(res.body, 'SAMLResponse')).toBeTruthy();
    const stored = await listCredentials(t.ctx.db, account.id);
    expect(stored[0]?.counter).toBe(2);
    expect(stored[0]?.last_used_at).not.toBeNull();
    const signins = (await auditActions(t, 'signin.mfa')).filter((e) => e.target_id === account.id);
    expect(signins.some((e) => e.details.method === 'webauthn')).toBe(true);
  });

  it('refuses a passcode (and app enrolment) for an account that has only keys', async () => {
    const { account } = await enrolledWithKey();
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    const res = await client.postForm('/idp/mfa', {
      csrfToken: csrfOf(mfaPage),
      passcode: '123456',
      nickname: 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(inputValue(res.body, 'SAMLResponse')).toBeUndefined();
  });

  it('accepts a synced passkey whose counter stays 0', async () => {
    const { account, authenticator } = await enrolledWithKey(new SoftAuthenticator(origin, { synced: true }));
    for (let i = 0; i < 2; i += 1) {
      const { res } = await assert(authenticator, account.username);
      expect(res.statusCode).toBe(200);
    }
    const stored = await listCredentials(t.ctx.db, account.id);
    expect([stored[0]?.counter, stored[0]?.device_type, stored[0]?.backed_up]).toEqual([
      0,
      'multiDevice',
      true,
    ]);
  });

  it("refuses another account's credential", async () => {
    const mine = await enrolledWithKey();
    const theirs = await enrolledWithKey();
    const { res } = await assert(mine.authenticator, mine.account.username, {}, theirs.authenticator);
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain(webauthnMessages.notRegistered);
    const refused = (await auditActions(t, 'passkey.signin')).filter((e) => e.target_id === mine.account.id);
    expect(refused.map((e) => e.details.reason)).toContain('otherAccount');
  });

  it('refuses an assertion made for another origin or RP ID', async () => {
    const { account, authenticator } = await enrolledWithKey();
    const phished = await assert(authenticator, account.username, { origin: 'https://portal.example.evil' });
    expect(phished.res.statusCode).toBe(401);
    expect(inputValue(phished.res.body, 'SAMLResponse')).toBeUndefined();
    const otherRp = await assert(authenticator, account.username, { rpId: 'example.evil' });
    expect(otherRp.res.statusCode).toBe(401);
    const reasons = (await auditActions(t, 'passkey.signin'))
      .filter((e) => e.target_id === account.id)
      .map((e) => e.details.reason);
    expect(reasons).toEqual(expect.arrayContaining(['origin', 'rpId']));
  });

  it('refuses a replayed assertion and a second answer to one challenge', async () => {
    const { account, authenticator } = await enrolledWithKey();
    const first = await assert(authenticator, account.username);
    expect(first.res.statusCode).toBe(200);
    // The same assertion again, in a new sign-in with a new challenge.
    const replay = await keyOptions(account.username);
    const again = await replay.client.postForm('/idp/mfa/webauthn', {
      csrfToken: replay.csrf,
      credential: JSON.stringify(first.answer),
    });
    expect(again.statusCode).toBe(401);
    // Two answers to one challenge: the first fails (UV false), the second (good) finds it used.
    const once = await keyOptions(account.username);
    const bad = await once.client.postForm('/idp/mfa/webauthn', {
      csrfToken: once.csrf,
      credential: JSON.stringify(authenticator.get(once.options, { noUserVerification: true })),
    });
    expect(bad.statusCode).toBe(401);
    const good = await once.client.postForm('/idp/mfa/webauthn', {
      csrfToken: once.csrf,
      credential: JSON.stringify(authenticator.get(once.options)),
    });
    expect(good.statusCode).toBe(401);
    expect(good.body).toContain(webauthnMessages.cancelled);
  });

  it('refuses a challenge answered after 5 minutes (the clock)', async () => {
    const { account, authenticator } = await enrolledWithKey();
    const { client, csrf, options } = await keyOptions(account.username);
    clock.advance(5 * 60_000 + 1000);
    const res = await client.postForm('/idp/mfa/webauthn', {
      csrfToken: csrf,
      credential: JSON.stringify(authenticator.get(options)),
    });
    clock.set(new Date());
    expect(res.statusCode).toBe(401);
  });

  it('refuses user verification false, at sign-in and at enrolment', async () => {
    const { account, authenticator } = await enrolledWithKey();
    const { res } = await assert(authenticator, account.username, { noUserVerification: true });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain(webauthnMessages.noUserVerification);

    const fresh = await createIdpAccount(t);
    const { client, mfaPage } = await passPasswordStep(t, fresh.username);
    const csrf = csrfOf(mfaPage);
    const { body } = await jsonPost<{ options: PublicKeyCredentialCreationOptionsJSON }>(
      client,
      '/idp/mfa/webauthn/register-options',
      csrf,
    );
    const enrol = await client.postForm('/idp/mfa/webauthn/register', {
      csrfToken: csrf,
      credential: JSON.stringify(
        new SoftAuthenticator(origin).create(body.options, { noUserVerification: true }),
      ),
      nickname: 'No PIN key',
    });
    expect(enrol.statusCode).toBe(400);
    expect(enrol.body).toContain(webauthnMessages.noUserVerification);
    expect(await listCredentials(t.ctx.db, fresh.id)).toEqual([]);
  });

  it('refuses a counter that goes back, audits it and mails InfoSec', async () => {
    const { account, authenticator } = await enrolledWithKey();
    expect((await assert(authenticator, account.username)).res.statusCode).toBe(200); // counter 2
    const { res } = await assert(authenticator, account.username, { counter: 2 });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain(webauthnMessages.counter);
    const events = (await auditActions(t, 'passkey.counter-regression')).filter(
      (e) => e.target_id === account.id,
    );
    expect(events).toHaveLength(1);
    const mails = (await outbox(t, INFOSEC)).filter((m) => m.text_body.includes(account.username));
    expect(mails.map((m) => m.subject)).toEqual([
      `${t.ctx.config.HOSPITAL_NAME} PRA Portal: possible cloned security key`,
    ]);
    expect((await listCredentials(t.ctx.db, account.id))[0]?.counter).toBe(2);
  });

  it('refuses registering a credential another account holds', async () => {
    const theirs = await enrolledWithKey();
    const account = await createIdpAccount(t);
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    const csrf = csrfOf(mfaPage);
    const { body } = await jsonPost<{ options: PublicKeyCredentialCreationOptionsJSON }>(
      client,
      '/idp/mfa/webauthn/register-options',
      csrf,
    );
    const res = await client.postForm('/idp/mfa/webauthn/register', {
      csrfToken: csrf,
      credential: JSON.stringify(
        new SoftAuthenticator(origin).create(body.options, { reuse: theirs.authenticator.credentials[0] }),
      ),
      nickname: 'Copied key',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(webauthnMessages.alreadyRegistered);
    expect(await listCredentials(t.ctx.db, account.id)).toEqual([]);
  });

  it('adds another at enrolment, at most 10; refuses enrolment here once the account has a factor', async () => {
    const { account, client, csrf, authenticator } = await enrolledWithKey();
    for (let i = 1; i < MAX_CREDENTIALS; i += 1) {
      const { body } = await jsonPost<{ options: PublicKeyCredentialCreationOptionsJSON }>(
        client,
        '/idp/mfa/webauthn/register-options',
        csrf,
      );
      expect(body.options.excludeCredentials).toHaveLength(i);
      const res = await client.postForm('/idp/mfa/webauthn/register', {
        csrfToken: csrf,
        credential: JSON.stringify(authenticator.create(body.options)),
        nickname: `Key ${i + 1}`,
      });
      expect(res.statusCode).toBe(200);
    }
    const eleventh = await jsonPost(client, '/idp/mfa/webauthn/register-options', csrf);
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.message).toBe(webauthnMessages.tooMany);
    expect(await listCredentials(t.ctx.db, account.id)).toHaveLength(MAX_CREDENTIALS);

    // A later sign-in cannot add a key at the IdP (the profile does, after re-authentication).
    const later = await passPasswordStep(t, account.username);
    const refused = await jsonPost(later.client, '/idp/mfa/webauthn/register-options', csrfOf(later.mfaPage));
    expect(refused.status).toBe(403);
    const cont = await later.client.postForm('/idp/mfa/continue', { csrfToken: csrfOf(later.mfaPage) });
    expect(inputValue(cont.body, 'SAMLResponse')).toBeUndefined();
  });

  it('never removes the last key an organization’s tier requires', async () => {
    const { account } = await enrolledWithKey();
    const [key] = await listCredentials(t.ctx.db, account.id);
    const orgId = await addOrganization(t, `High tier ${account.username}`);
    await t.ctx.db.updateTable('organizations').set({ risk_tier: 'high' }).where('id', '=', orgId).execute();
    const policy = await t.ctx.db
      .selectFrom('governance_policies')
      .select('settings')
      .where('tier', '=', 'high')
      .executeTakeFirstOrThrow();
    // The high tier requires phishing-resistant sign-in by default (migration 0010).
    expect(policy.settings.signInStrength).toBe('phishingResistant');
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: account.id,
        organization_id: orgId,
        expires_at: new Date(clock.now().getTime() + 30 * 86_400_000),
      })
      .execute();
    const who = await t.ctx.db
      .selectFrom('accounts')
      .select(['id', 'username', 'given_name', 'email'])
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    const refused = await removeCredential(t.ctx, { account: who, id: key!.id, clientAddress: '127.0.0.1' });
    expect(refused).toEqual({ ok: false, message: webauthnMessages.lastRequired, status: 'conflict' });
    expect(await listCredentials(t.ctx.db, account.id)).toHaveLength(1);

    // Without the requirement it goes, with the owner's mail and the audit event.
    await t.ctx.db
      .updateTable('governance_policies')
      .set({ settings: JSON.stringify({ ...policy.settings, signInStrength: 'mfa' }) })
      .where('tier', '=', 'high')
      .execute();
    expect(await removeCredential(t.ctx, { account: who, id: key!.id, clientAddress: '127.0.0.1' })).toEqual({
      ok: true,
    });
    expect(await listCredentials(t.ctx.db, account.id)).toEqual([]);
    const mails = await outbox(t, who.email);
    expect(mails.map((m) => m.subject)).toContain(
      'A security key or passkey was removed from your PRA account',
    );
    await t.ctx.db
      .updateTable('governance_policies')
      .set({ settings: JSON.stringify(policy.settings) })
      .where('tier', '=', 'high')
      .execute();
  });

  it('serves the browser helper as a same-origin script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/idp/assets/webauthn.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/javascript');
    expect(res.body).toContain('SimpleWebAuthnBrowser');
    expect(res.body).toContain('data-webauthn');
    expect(res.body).toContain('button.disabled = false');
  });

  /** The AuthnContextClassRef of an answer page's SAML response. */
  function classOf(page: string): string | undefined {
    const response = Buffer.from(inputValue(page, 'SAMLResponse') ?? '', 'base64').toString('utf8');
    return /<saml:AuthnContextClassRef>([^<]*)<\/saml:AuthnContextClassRef>/.exec(response)?.[1];
  }

  /** An account with an authenticator app (enrolled at first sign-in) and a key added beside it. */
  async function appAndKey() {
    const account = await createIdpAccount(t);
    const { client, mfaPage } = await passPasswordStep(t, account.username);
    const secret = secretOf(mfaPage);
    const enrolled = await client.postForm('/idp/mfa', {
      csrfToken: csrfOf(mfaPage),
      passcode: await totpCode(secret, -1),
      nickname: 'Work phone',
    });
    expect(enrolled.statusCode).toBe(200);
    expect(classOf(enrolled.body)).toBe(REFEDS_MFA);
    // The key as the profile adds it (the ceremony's functions, a session of its own).
    const row = await t.ctx.db
      .selectFrom('accounts')
      .select(['id', 'username', 'given_name', 'family_name', 'email'])
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    const session = { idHash: 'profile-session', data: {} };
    const options = await registrationOptions(t.ctx, session, row);
    if (!options.ok) throw new Error(options.message);
    const authenticator = new SoftAuthenticator(origin);
    const added = await verifyRegistration(t.ctx, session, {
      account: row,
      response: authenticator.create(options.options),
      nickname: 'Blue key',
      clientAddress: '127.0.0.1',
    });
    expect(added.ok).toBe(true);
    return { account, secret, authenticator };
  }

  async function requireKeys(accountId: string, name: string) {
    const orgId = await addOrganization(t, name);
    await t.ctx.db.updateTable('organizations').set({ risk_tier: 'high' }).where('id', '=', orgId).execute();
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: accountId,
        organization_id: orgId,
        expires_at: new Date(clock.now().getTime() + 86_400_000 * 30),
      })
      .execute();
  }

  describe('with an authenticator app beside the key', () => {
    // Codes are computed a step away from now: pin Date mid-step so no test straddles a boundary.
    beforeAll(() => {
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      vi.setSystemTime(Math.floor(Date.now() / 30_000) * 30_000 + 15_000);
    });
    afterAll(() => vi.useRealTimers());

    it('offers the key first, then the passcode; the answer carries REFEDS MFA for a passcode and the phishing-resistant class for a key', async () => {
      const { account, secret, authenticator } = await appAndKey();
      const { client, mfaPage } = await passPasswordStep(t, account.username);
      expect(mfaPage.indexOf('Use Security Key or Passkey')).toBeGreaterThan(-1);
      expect(mfaPage.indexOf('Use Security Key or Passkey')).toBeLessThan(mfaPage.indexOf('name="passcode"'));
      const res = await client.postForm('/idp/mfa', {
        csrfToken: csrfOf(mfaPage),
        passcode: await totpCode(secret),
      });
      expect(res.statusCode).toBe(200);
      expect(classOf(res.body)).toBe(REFEDS_MFA);
      const byKey = await assert(authenticator, account.username);
      expect(byKey.res.statusCode).toBe(200);
      expect(classOf(byKey.res.body)).toBe(PHISHING_RESISTANT_CLASS);
    });

    it('hides and refuses the passcode once an organization requires phishing-resistant sign-in, audited; the key works', async () => {
      const { account, secret, authenticator } = await appAndKey();
      await requireKeys(account.id, `High tier ${account.username}`);
      const { client, mfaPage } = await passPasswordStep(t, account.username);
      expect(mfaPage).toContain('Use Security Key or Passkey');
      expect(mfaPage).not.toContain('name="passcode"');
      const res = await client.postForm('/idp/mfa', {
        csrfToken: csrfOf(mfaPage),
        passcode: await totpCode(secret),
      });
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain(keyRequiredMessage);
      expect(inputValue(res.body, 'SAMLResponse')).toBeUndefined();
      const refused = (await auditActions(t, 'signin.mfa-strength-refused')).filter(
        (e) => e.target_id === account.id,
      );
      expect(refused.map((e) => e.details.method)).toEqual(['totp']);
      const byKey = await assert(authenticator, account.username);
      expect(byKey.res.statusCode).toBe(200);
      expect(classOf(byKey.res.body)).toBe(PHISHING_RESISTANT_CLASS);
    });

    /** An account with an authenticator app only, enrolled at first sign-in. */
    async function appOnly() {
      const account = await createIdpAccount(t);
      const { client, mfaPage } = await passPasswordStep(t, account.username);
      const secret = secretOf(mfaPage);
      const enrolled = await client.postForm('/idp/mfa', {
        csrfToken: csrfOf(mfaPage),
        passcode: await totpCode(secret, -1),
        nickname: 'Work phone',
      });
      expect(enrolled.statusCode).toBe(200);
      return { account, secret };
    }

    /** A passcode sign-in; `steps` picks an unused code (a code passes once). */
    async function passcodeSignIn(username: string, secret: string, steps = 0) {
      const { client, mfaPage } = await passPasswordStep(t, username);
      const res = await client.postForm('/idp/mfa', {
        csrfToken: csrfOf(mfaPage),
        passcode: await totpCode(secret, steps),
      });
      return { client, mfaPage, res };
    }

    it('gives an account without a key 30 days (W3, audited): Add One Now or Later after the passcode', async () => {
      const { account, secret } = await appOnly();
      const org = `Grace tier ${account.username}`;
      await requireKeys(account.id, org);
      const until = new Date(clock.now().getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
      const notice = `${org} requires a security key or passkey from ${until}`;

      const first = await passcodeSignIn(account.username, secret);
      expect(first.mfaPage).toContain('name="passcode"');
      expect(first.res.statusCode).toBe(200);
      expect(first.res.body).toContain(`${notice}.`);
      expect(first.res.body).toContain('Add One Now');
      expect(first.res.body).not.toContain('<script>');
      expect(inputValue(first.res.body, 'SAMLResponse')).toBeUndefined();
      // The grace started once: one W3 mail, one audit event, whatever the sign-ins that follow.
      const { email } = await t.ctx.db
        .selectFrom('accounts')
        .select('email')
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow();
      expect((await outbox(t, email)).filter((m) => m.subject === notice)).toHaveLength(1);
      const started = (await auditActions(t, 'mfa.requirement-change')).filter(
        (e) => e.target_id === account.id,
      );
      expect(started.map((e) => e.details.requirement)).toEqual(['phishingResistantPending']);

      // Later answers the SP as the passcode would have.
      const later = await first.client.postForm('/idp/mfa/grace/later', {
        csrfToken: csrfOf(first.res.body),
      });
      expect(later.statusCode).toBe(200);
      expect(classOf(later.body)).toBe(REFEDS_MFA);
      // Without the passcode first, neither answer is open.
      const { client: stranger, mfaPage } = await passPasswordStep(t, account.username);
      const skipped = await stranger.postForm('/idp/mfa/grace/later', { csrfToken: csrfOf(mfaPage) });
      expect(inputValue(skipped.body, 'SAMLResponse')).toBeUndefined();
      const noAdd = await jsonPost(stranger, '/idp/mfa/webauthn/register-options', csrfOf(mfaPage));
      expect(noAdd.status).toBe(403);

      // Add One Now: the key ceremony, then Continue with the key's class.
      clock.advance(10 * 86_400_000);
      const second = await passcodeSignIn(account.username, secret, 1);
      expect(second.res.body).toContain(`${notice}.`);
      const csrf = csrfOf(second.res.body);
      const adding = await second.client.postForm('/idp/mfa/grace/add', { csrfToken: csrf });
      expect(adding.statusCode).toBe(200);
      expect(adding.body).toContain('Add Security Key or Passkey');
      expect(adding.body).toContain('/idp/assets/webauthn.js');
      const authenticator = new SoftAuthenticator(origin);
      const { body } = await jsonPost<{ options: PublicKeyCredentialCreationOptionsJSON }>(
        second.client,
        '/idp/mfa/webauthn/register-options',
        csrf,
      );
      const added = await second.client.postForm('/idp/mfa/webauthn/register', {
        csrfToken: csrf,
        credential: JSON.stringify(authenticator.create(body.options)),
        nickname: 'Grace key',
      });
      expect(added.statusCode).toBe(200);
      expect(added.body).toContain('Security key added');
      const done = await second.client.postForm('/idp/mfa/continue', { csrfToken: csrf });
      expect(classOf(done.body)).toBe(PHISHING_RESISTANT_CLASS);
      // With a key, the passcode is refused at once (grace or not); the key signs in.
      const third = await passcodeSignIn(account.username, secret);
      expect(third.res.statusCode).toBe(403);
      expect((await assert(authenticator, account.username)).res.statusCode).toBe(200);
      clock.set(new Date());
    });

    /** Through the portal: its login, the password step and the passcode page (which keeps the key policy). */
    async function portalPasscodePage(username: string) {
      const client = new TestClient(t.app);
      await client.fetchCsrf();
      const login = await client.get('/api/saml/login/standard?next=%2Fwelcome');
      const sso = new URL(String(login.headers.location));
      await client.get(`${sso.pathname}${sso.search}`);
      const loginPage = await client.get('/idp/login');
      await client.postForm('/idp/login', {
        csrfToken: csrfOf(loginPage.body),
        username,
        password: PASSWORD,
      });
      return { client, mfaPage: (await client.get('/idp/mfa')).body };
    }

    it('a tier raised after the passcode page (the policy the page kept says any factor): the portal reads it afresh and asks for the key; no session', async () => {
      const { account, secret, authenticator } = await appAndKey();
      const { client, mfaPage } = await portalPasscodePage(account.username);
      expect(mfaPage).toContain('name="passcode"');
      await requireKeys(account.id, `Raised tier ${account.username}`);
      const posted = await client.postForm('/idp/mfa', {
        csrfToken: csrfOf(mfaPage),
        passcode: await totpCode(secret),
      });
      const samlResponse = inputValue(posted.body, 'SAMLResponse');
      expect(samlResponse).toBeTruthy(); // the IdP went by the policy its passcode page kept
      const acs = await client.postForm('/api/saml/acs', {
        SAMLResponse: samlResponse!,
        RelayState: inputValue(posted.body, 'RelayState') ?? '/welcome',
      });
      // The ACS asks once more for the phishing-resistant class: no session with the passcode.
      expect(String(acs.headers.location).startsWith(t.ctx.idp.ssoUrl)).toBe(true);
      expect((await client.get('/api/user')).statusCode).toBe(401);
      expect(
        (await auditActions(t, 'signin.step-up')).filter((e) => e.target_id === account.id),
      ).toHaveLength(1);
      expect((await assert(authenticator, account.username)).res.statusCode).toBe(200);
    });

    it('a grace that ends between the passcode page and the passcode: the kept policy is read at the passcode’s time and refuses it', async () => {
      const { account, secret } = await appOnly();
      await requireKeys(account.id, `Ending tier ${account.username}`);
      // The grant runs past the grace, so the requirement holds when it ends.
      await t.ctx.db
        .updateTable('role_grants')
        .set({ expires_at: new Date(clock.now().getTime() + 60 * 86_400_000) })
        .where('account_id', '=', account.id)
        .execute();
      // The grace begins with the first sign-in that meets the requirement.
      expect((await passPasswordStep(t, account.username)).mfaPage).toContain('name="passcode"');
      // Its last minute: the passcode page is shown during it, the passcode comes after it (two
      // minutes later, well inside the sign-in's own 15 minutes).
      clock.advance(30 * 86_400_000 - 60_000);
      const { client, mfaPage } = await passPasswordStep(t, account.username);
      expect(mfaPage).toContain('name="passcode"');
      clock.advance(2 * 60_000);
      const posted = await client.postForm('/idp/mfa', {
        csrfToken: csrfOf(mfaPage),
        passcode: await totpCode(secret),
      });
      expect(posted.statusCode).toBe(403);
      expect(posted.body).toContain(keyRequiredMessage);
      expect(inputValue(posted.body, 'SAMLResponse')).toBeUndefined();
      clock.set(new Date());
    });

    it('refuses the passcode after the grace, audited, and the sign-in page says why; a lowered tier lets it in at once', async () => {
      const { account, secret } = await appOnly();
      await requireKeys(account.id, `Late tier ${account.username}`);
      const during = await passcodeSignIn(account.username, secret);
      expect(during.res.body).toContain('Add One Now');
      clock.advance(30 * 86_400_000 + 60_000);
      // The grant must still run past the grace for the requirement to hold.
      await t.ctx.db
        .updateTable('role_grants')
        .set({ expires_at: new Date(clock.now().getTime() + 86_400_000) })
        .where('account_id', '=', account.id)
        .execute();
      // The page offers nothing to type into; a passcode posted anyway is refused.
      const { client, loginPage } = await startSignIn(t);
      const csrf = csrfOf(loginPage);
      await client.postForm('/idp/login', {
        csrfToken: csrf,
        username: account.username,
        password: PASSWORD,
      });
      const mfaPage = (await client.get('/idp/mfa')).body;
      expect(mfaPage).not.toContain('name="passcode"');
      expect(mfaPage).not.toContain('Send Push');
      expect(mfaPage).toContain(noKeyMessage);
      const after = await client.postForm('/idp/mfa', {
        csrfToken: csrf,
        passcode: await totpCode(secret, 1),
      });
      expect(after.statusCode).toBe(403);
      expect(inputValue(after.body, 'SAMLResponse')).toBeUndefined();
      const refused = (await auditActions(t, 'signin.mfa-strength-refused')).filter(
        (e) => e.target_id === account.id,
      );
      expect(refused.map((e) => e.details.method)).toEqual(['totp']);

      // The grant ends: the requirement drops at once and the passcode signs in again.
      await t.ctx.db
        .updateTable('role_grants')
        .set({ expires_at: new Date(clock.now().getTime() - 1000) })
        .where('account_id', '=', account.id)
        .execute();
      const lowered = await passcodeSignIn(account.username, secret, 1);
      expect(lowered.res.statusCode).toBe(200);
      expect(classOf(lowered.res.body)).toBe(REFEDS_MFA);
      clock.set(new Date());
    });

    /** The portal's own step-up AuthnRequest (ForceAuthn, RequestedAuthnContext `phr`, exact), up to the MFA page. */
    async function stepUpSignIn(username: string) {
      const sp = createServiceProvider(t.ctx.config, t.ctx.db, t.ctx.keys.sp, t.ctx.idp, {
        browserHash: 'step-up-test',
        stepUp: true,
      });
      const url = new URL(await sp.getAuthorizeUrlAsync('/welcome', undefined, {}));
      const request = inflateRawSync(
        Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64'),
      ).toString();
      expect(request).toContain('ForceAuthn="true"');
      expect(request).toContain(`>${PHISHING_RESISTANT_CLASS}</saml:AuthnContextClassRef>`);
      const client = new TestClient(t.app);
      expect((await client.get(`${url.pathname}${url.search}`)).statusCode).toBe(303);
      const loginPage = (await client.get('/idp/login')).body;
      const csrf = csrfOf(loginPage);
      await client.postForm('/idp/login', { csrfToken: csrf, username, password: PASSWORD });
      return { client, csrf, mfa: await client.get('/idp/mfa'), sp };
    }

    it("honours the SP's RequestedAuthnContext on the step-up: only the key is offered, a passcode is refused, the key answers with its class", async () => {
      const { account, secret, authenticator } = await appAndKey();
      const { client, csrf, mfa } = await stepUpSignIn(account.username);
      expect(mfa.body).toContain('Use Security Key or Passkey');
      expect(mfa.body).not.toContain('name="passcode"');
      const passcode = await client.postForm('/idp/mfa', {
        csrfToken: csrf,
        passcode: await totpCode(secret),
      });
      expect(passcode.statusCode).toBe(403);
      expect(inputValue(passcode.body, 'SAMLResponse')).toBeUndefined();
      const { body } = await jsonPost<{ options: PublicKeyCredentialRequestOptionsJSON }>(
        client,
        '/idp/mfa/webauthn/options',
        csrf,
      );
      const byKey = await client.postForm('/idp/mfa/webauthn', {
        csrfToken: csrf,
        credential: JSON.stringify(authenticator.get(body.options)),
      });
      expect(byKey.statusCode).toBe(200);
      expect(classOf(byKey.body)).toBe(PHISHING_RESISTANT_CLASS);
    });

    it('answers NoAuthnContext (signed, no assertion) when the account has no key to meet the request, audited; the SP refuses it', async () => {
      const { account } = await appOnly();
      const { mfa, sp } = await stepUpSignIn(account.username);
      expect(mfa.statusCode).toBe(200);
      expect(mfa.body).not.toContain('name="passcode"');
      const xml = Buffer.from(inputValue(mfa.body, 'SAMLResponse') ?? '', 'base64').toString('utf8');
      expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:Responder');
      expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext');
      expect(xml).not.toContain('Assertion');
      expect(xml).toContain('<ds:Signature');
      await expect(
        sp.validatePostResponseAsync({ SAMLResponse: inputValue(mfa.body, 'SAMLResponse')! }),
      ).rejects.toThrow(/NoAuthnContext/);
      const refused = (await auditActions(t, 'signin.mfa-strength-refused')).filter(
        (e) => e.target_id === account.id,
      );
      expect(refused.map((e) => e.details.reason)).toEqual(['requestedAuthnContext']);
    });
  });
});
