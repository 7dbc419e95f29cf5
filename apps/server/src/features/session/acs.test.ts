import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDatabaseKinds } from '../../../test/support/databases';
import { forgeResponse, forgeResponseXml, type ForgeOptions } from '../../../test/support/saml-forge';
import { createAccount, startLogin, validResponseOptions } from '../../../test/support/sign-in';
import { createTestApp, fixtureKeys, TestClient, type TestApp } from '../../../test/support/test-app';

/**
 * A tamper that puts the signed assertion and a forged copy of it (same ID, naming `victim`, its
 * signature removed) where `place` says, in place of the signed one.
 */
function wrapSignedAssertion(place: (signed: string, forged: string) => string) {
  return (xml: string) => {
    const signed = /<saml:Assertion[^]*<\/saml:Assertion>/.exec(xml)![0];
    const forged = signed.replace('>vendorone<', '>victim<').replace(/<ds:Signature[^]*<\/ds:Signature>/, '');
    return xml.replace(signed, place(signed, forged));
  };
}

describe.each(testDatabaseKinds)('SAML assertion consumer on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await createAccount(t, { username: 'vendorone' });
    await createAccount(t, { username: 'victim', type: 'employee', isAdmin: true });
    await createAccount(t, { username: 'disabledone', status: 'disabled' });
  });
  afterAll(async () => t?.close());

  async function signedInSessions(): Promise<number> {
    const row = await sql<{
      n: number;
    }>`select count(*)::int as n from sessions where account_id is not null and revoked_at is null`
      .execute(t.ctx.db)
      .then((r) => r.rows[0]);
    return row?.n ?? 0;
  }

  async function signInFailures() {
    return t.ctx.db
      .selectFrom('audit_events')
      .select(['details', 'target_username', 'occurred_at'])
      .where('action', '=', 'signin')
      .where('outcome', '=', 'failure')
      .orderBy('occurred_at')
      .execute();
  }

  async function attempt(change: (o: ForgeOptions) => ForgeOptions | string, next = '/welcome') {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const planted = client.cookie;
    const requestId = await startLogin(t, client, next);
    const made = change(validResponseOptions(t, 'vendorone', requestId));
    const samlResponse = typeof made === 'string' ? made : forgeResponse(made);
    const res = await client.postForm('/api/saml/acs', { SAMLResponse: samlResponse, RelayState: next });
    return { client, res, planted, requestId };
  }

  async function expectRefused(result: Awaited<ReturnType<typeof attempt>>) {
    expect(result.res.statusCode).toBe(303);
    expect(result.res.headers.location).toBe('/auth-failure');
    expect(result.res.headers['set-cookie']).toBeUndefined();
    const status = await result.client.get('/api/saml/is-authenticated');
    expect(status.json()).toEqual({ isAuthenticated: false });
  }

  it('signs in with a valid response, rotating the session planted before sign-in', async () => {
    const before = await signedInSessions();
    const { client, res, planted } = await attempt((o) => o, '/brm/pending-approvals?x=1');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/brm/pending-approvals?x=1');
    expect(client.cookie).not.toBe(planted);
    const status = await client.get('/api/saml/is-authenticated');
    expect(status.json()).toMatchObject({ isAuthenticated: true, remainingSessionExtentions: 3 });
    expect(await signedInSessions()).toBe(before + 1);
    // The planted (anonymous) cookie is dead now.
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/saml/is-authenticated',
      headers: { cookie: planted },
    });
    expect(old.json()).toEqual({ isAuthenticated: false });
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'signin')
      .where('outcome', '=', 'success')
      .execute();
    expect(audit.some((e) => e.target_username === 'vendorone')).toBe(true);
  });

  const refusals: [string, (o: ForgeOptions) => ForgeOptions | string][] = [
    ['an unsigned response', (o) => ({ ...o, signAssertion: false, signResponse: false })],
    ['a response whose assertion signature was stripped', (o) => ({ ...o, signAssertion: false })],
    ['a response with only the assertion signed', (o) => ({ ...o, signResponse: false })],
    [
      'a NameID edited after signing',
      (o) => ({ ...o, tamper: (xml) => xml.replace('>vendorone<', '>victim<') }),
    ],
    // Signature wrapping: the signed assertion stays, and a forged copy naming `victim` (an active
    // admin) rides beside it. The response's signature and xml-crypto's duplicate-ID check both
    // stand in the way (dependency-patches.test.ts checks the latter alone).
    [
      "a forged assertion with the signed one's ID placed before it",
      (o) => ({ ...o, tamper: wrapSignedAssertion((signed, forged) => forged + signed) }),
    ],
    [
      "a forged assertion with the signed one's ID inside an extension of the response",
      (o) => ({
        ...o,
        tamper: wrapSignedAssertion(
          (signed, forged) => `<samlp:Extensions>${signed}</samlp:Extensions>${forged}`,
        ),
      }),
    ],
    [
      'a response signed by another key with its certificate embedded',
      (o) => ({ ...o, keys: fixtureKeys('other'), embedCert: true }),
    ],
    ['a wrong audience', (o) => ({ ...o, audience: 'https://other-sp.example/metadata' })],
    ['a wrong Destination', (o) => ({ ...o, destination: 'https://other-sp.example/acs' })],
    ['a missing Destination', (o) => ({ ...o, destination: null })],
    ['a wrong Recipient', (o) => ({ ...o, recipient: 'https://other-sp.example/acs' })],
    [
      'an expired response',
      (o) => ({
        ...o,
        notBefore: new Date(Date.now() - 20 * 60_000),
        notOnOrAfter: new Date(Date.now() - 10 * 60_000),
      }),
    ],
    [
      'a response not yet valid',
      (o) => ({
        ...o,
        notBefore: new Date(Date.now() + 10 * 60_000),
        notOnOrAfter: new Date(Date.now() + 20 * 60_000),
      }),
    ],
    ['an unknown InResponseTo', (o) => ({ ...o, inResponseTo: '_never-issued' })],
    ['a missing InResponseTo', (o) => ({ ...o, inResponseTo: null })],
    [
      'a DOCTYPE with an external entity',
      (o) =>
        Buffer.from(
          forgeResponseXml(o).replace(
            '<samlp:Response',
            '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><samlp:Response',
          ),
        ).toString('base64'),
    ],
    ['a 5 MB body', () => 'A'.repeat(5 * 1024 * 1024)],
    ['junk that is not XML', () => Buffer.from('not xml at all').toString('base64')],
    ['a disabled account', (o) => ({ ...o, nameId: 'disabledone' })],
    ['an unknown account', (o) => ({ ...o, nameId: 'nobody' })],
  ];

  it.each(refusals)('refuses %s and ends on /auth-failure with no session', async (_name, change) => {
    const before = await signedInSessions();
    const failuresBefore = await signInFailures();
    await expectRefused(await attempt(change));
    expect(await signedInSessions()).toBe(before);
    const failures = await signInFailures();
    expect(failures.length).toBe(failuresBefore.length + 1);
    // The audit says why, never with the SAML document itself.
    const details = JSON.stringify(failures.at(-1));
    expect(details).not.toMatch(/samlp:Response|PHNhbWxw|SignatureValue/);
  });

  const SHA1 = {
    signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
  };
  // Each signed with the IdP's own key: node-saml accepts them, our checks must not.
  const unchecked: [string, (o: ForgeOptions) => ForgeOptions, RegExp][] = [
    [
      "a Response Issuer other than the IdP's",
      (o) => ({ ...o, responseIssuer: 'https://other-idp.example/metadata' }),
      /Response Issuer/,
    ],
    ['a Response without an Issuer', (o) => ({ ...o, responseIssuer: null }), /Response Issuer/],
    [
      "an Assertion Issuer other than the IdP's",
      (o) => ({ ...o, assertionIssuer: 'https://other-idp.example/metadata' }),
      /Assertion Issuer/,
    ],
    [
      'a top-level status other than Success',
      (o) => ({ ...o, statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }),
      /status is not Success/,
    ],
    [
      'a holder-of-key subject confirmation',
      (o) => ({ ...o, confirmationMethod: 'urn:oasis:names:tc:SAML:2.0:cm:holder-of-key' }),
      /not bearer/,
    ],
    [
      'RSA-SHA1 signatures',
      (o) => ({ ...o, signatureAlgorithm: SHA1.signatureAlgorithm }),
      /SignatureMethod .*rsa-sha1 refused/,
    ],
    [
      'SHA-1 digests',
      (o) => ({ ...o, digestAlgorithm: SHA1.digestAlgorithm }),
      /DigestMethod .*sha1 refused/,
    ],
  ];

  it.each(unchecked)(
    'refuses %s signed with the IdP key: /auth-failure, no session, audited with the reason',
    async (_name, change, reason) => {
      const before = await signedInSessions();
      await expectRefused(await attempt(change));
      expect(await signedInSessions()).toBe(before);
      expect(await lastRefusalReason()).toMatch(reason);
    },
  );

  async function lastRefusalReason(): Promise<string> {
    const failures = await signInFailures();
    return String((failures.at(-1)?.details as { reason?: string } | undefined)?.reason ?? '');
  }

  it('refuses the same response posted twice by the same browser', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const requestId = await startLogin(t, client);
    const samlResponse = forgeResponse(validResponseOptions(t, 'vendorone', requestId));
    const first = await client.postForm('/api/saml/acs', { SAMLResponse: samlResponse });
    expect(first.headers.location).toBe('/welcome');
    const second = await client.postForm('/api/saml/acs', { SAMLResponse: samlResponse });
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe('/auth-failure');
    expect(second.headers['set-cookie']).toBeUndefined();
    expect(await lastRefusalReason()).toMatch(/InResponseTo/);
  });

  it('refuses two different responses answering one request', async () => {
    const client = new TestClient(t.app);
    const requestId = await startLogin(t, client);
    const a = await client.postForm('/api/saml/acs', {
      SAMLResponse: forgeResponse(validResponseOptions(t, 'vendorone', requestId)),
    });
    expect(a.headers.location).toBe('/welcome');
    const b = await client.postForm('/api/saml/acs', {
      SAMLResponse: forgeResponse(validResponseOptions(t, 'vendorone', requestId)),
    });
    expect(b.headers.location).toBe('/auth-failure');
    expect(b.headers['set-cookie']).toBeUndefined();
  });

  it("refuses a response for someone else's sign-in posted from another browser (login CSRF)", async () => {
    const victim = new TestClient(t.app);
    await victim.fetchCsrf();
    const attacker = new TestClient(t.app);
    const requestId = await startLogin(t, attacker);
    // The attacker signs in at the IdP and makes the victim's browser post the response.
    const samlResponse = forgeResponse(validResponseOptions(t, 'vendorone', requestId));
    const planted = await victim.postForm('/api/saml/acs', { SAMLResponse: samlResponse });
    await expectRefused({ client: victim, res: planted, planted: '', requestId });
    expect(await lastRefusalReason()).toMatch(/another browser/);
    // The browser that started the sign-in can still finish it.
    const own = await attacker.postForm('/api/saml/acs', { SAMLResponse: samlResponse });
    expect(own.headers.location).toBe('/welcome');
  });

  it('keeps the sign-in nonce in an HttpOnly cookie for the ten minutes a sign-in may take', async () => {
    const client = new TestClient(t.app);
    const res = await client.get('/api/saml/login/standard?next=/welcome');
    const cookie = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('pra_saml='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Max-Age=600/);
  });

  it('sends `next` pointing to another host to /welcome instead', async () => {
    const client = new TestClient(t.app);
    const login = await client.get(
      `/api/saml/login/standard?next=${encodeURIComponent('https://evil.example/x')}`,
    );
    const relayState = new URL(String(login.headers.location)).searchParams.get('RelayState');
    expect(relayState).toBe('/welcome');
    // A RelayState changed on the way back is checked again.
    const { res } = await attempt((o) => o, '//evil.example/x');
    expect(res.headers.location).toBe('/welcome');
  });

  it('redirects the login to the IdP with a signed AuthnRequest', async () => {
    const client = new TestClient(t.app);
    const res = await client.get('/api/saml/login/standard?next=/welcome');
    const url = new URL(String(res.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(t.ctx.idp.ssoUrl);
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(url.searchParams.get('Signature')).toBeTruthy();
  });

  it('publishes SP metadata with the ACS and signing certificate', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/saml/metadata' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`${t.ctx.config.publicUrl}/api/saml/acs`);
    expect(res.body).toContain('X509Certificate');
  });
});
