import { verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createExternalIdpApp, EXTERNAL_IDP } from '../../../test/support/external-idp';
import {
  forgeResponse,
  inflateMessage,
  PASSWORD_PROTECTED,
  redirectLogoutRequest,
  type LogoutRequestOptions,
} from '../../../test/support/saml-forge';
import { createAccount, startLogin, validResponseOptions } from '../../../test/support/sign-in';
import { fixtureKeys, TestClient, type TestApp } from '../../../test/support/test-app';

const MFA = 'https://refeds.org/profile/mfa';

describe.each(testDatabaseKinds)('the hospital’s IdP on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createExternalIdpApp(kind, {
      IDP_REQUIRED_AUTHN_CONTEXT: `${MFA}, urn:example:hardware-token`,
    });
    await createAccount(t, { username: 'mfavendor' });
    await createAccount(t, { username: 'mailvendor' });
    await createAccount(t, { username: 'slovendor' });
  });
  afterAll(async () => t?.close());

  async function signIn(
    username: string,
    extra: {
      authnContextClassRef?: string | null;
      attributes?: Record<string, string>;
      sessionIndex?: string;
    } = {},
  ) {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const login = await client.get('/api/saml/login/standard?next=%2Fwelcome');
    const requestXml = inflateMessage(
      new URL(String(login.headers.location)).searchParams.get('SAMLRequest') ?? '',
    );
    const requestId = await startLogin(t, client);
    const res = await client.postForm('/api/saml/acs', {
      SAMLResponse: forgeResponse({
        ...validResponseOptions(t, username, requestId),
        authnContextClassRef: MFA,
        ...extra,
      }),
      RelayState: '/welcome',
    });
    return { client, res, requestXml };
  }

  const audits = (action: string) =>
    t.ctx.db
      .selectFrom('audit_events')
      .select(['outcome', 'target_username', 'details'])
      .where('action', '=', action)
      .orderBy('occurred_at')
      .execute();

  const account = (username: string) =>
    t.ctx.db.selectFrom('accounts').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

  it('asks for the required authentication context in every AuthnRequest', async () => {
    const { requestXml } = await signIn('mfavendor');
    const requested =
      /<samlp:RequestedAuthnContext[^>]*Comparison="exact">(.*)<\/samlp:RequestedAuthnContext>/.exec(
        requestXml,
      )?.[1];
    expect(requested?.match(/>[^<]+</g)).toEqual([`>${MFA}<`, '>urn:example:hardware-token<']);
  });

  it('accepts an assertion in one of the accepted contexts', async () => {
    const { client, res } = await signIn('mfavendor', { authnContextClassRef: 'urn:example:hardware-token' });
    expect(res.headers.location).toBe('/welcome');
    expect((await client.get('/api/saml/is-authenticated')).json()).toMatchObject({ isAuthenticated: true });
  });

  it.each([
    ['a password-only assertion', PASSWORD_PROTECTED],
    ['an assertion without a context', null],
  ])('refuses %s with its own failure page, audited', async (_name, ref) => {
    const { client, res } = await signIn('mfavendor', { authnContextClassRef: ref });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/auth-failure?reason=authn-context');
    expect((await client.get('/api/saml/is-authenticated')).json()).toEqual({ isAuthenticated: false });
    const last = (await audits('signin')).at(-1);
    expect(last).toMatchObject({ outcome: 'failure', target_username: 'mfavendor' });
    expect(last?.details).toMatchObject({
      reason: 'authentication context not accepted',
      authnContext: ref ?? '(none)',
    });
  });

  it('takes the IdP’s email and names at sign-in and audits what changed', async () => {
    const before = await account('mailvendor');
    const { res } = await signIn('mailvendor', {
      attributes: { mail: 'New.Address@vendor.example', givenName: 'Ada', sn: 'Lovelace' },
    });
    expect(res.headers.location).toBe('/welcome');
    const after = await account('mailvendor');
    expect(after).toMatchObject({
      email: 'New.Address@vendor.example',
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    const change = (await audits('account.update-from-idp')).at(-1);
    expect(change).toMatchObject({ outcome: 'success', target_username: 'mailvendor' });
    expect(change?.details).toEqual({
      previousEmail: before.email,
      email: 'New.Address@vendor.example',
      changed: 'givenName familyName email',
    });
    // The same values again change nothing and audit nothing; a case-only difference is no change.
    const count = (await audits('account.update-from-idp')).length;
    await signIn('mailvendor', {
      attributes: { mail: 'new.address@VENDOR.example', givenName: 'Ada', sn: 'Lovelace' },
    });
    expect((await audits('account.update-from-idp')).length).toBe(count);
    expect((await account('mailvendor')).email).toBe('New.Address@vendor.example');
  });

  it('keeps the stored email when the IdP’s is not an address', async () => {
    await signIn('mailvendor', { attributes: { mail: 'not an address\u202e' } });
    expect((await account('mailvendor')).email).toBe('New.Address@vendor.example');
  });

  it('advertises its single logout endpoint in the HTTP-Redirect binding', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/saml/metadata' });
    expect(res.body).toContain(
      `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${t.ctx.config.publicUrl}/api/saml/slo"/>`,
    );
    expect(res.body).not.toContain('/home');
  });

  function logoutRequest(o: Partial<LogoutRequestOptions> = {}): string {
    return redirectLogoutRequest({
      issuer: EXTERNAL_IDP.entityId,
      destination: `${t.ctx.config.publicUrl}/api/saml/slo`,
      nameId: 'slovendor',
      keys: fixtureKeys('idp'),
      relayState: 'idp-state',
      ...o,
    });
  }

  async function isSignedIn(client: TestClient): Promise<boolean> {
    const status = await client.get('/api/saml/is-authenticated');
    return status.json<{ isAuthenticated: boolean }>().isAuthenticated;
  }

  it.each([
    ['unsigned', { keys: null }],
    ['signed by another key', { keys: fixtureKeys('other') }],
    ['signed with SHA-1', { sigAlg: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' }],
    [
      'changed after signing',
      { tamper: (q: string) => q.replace('RelayState=idp-state', 'RelayState=other') },
    ],
    ['from another issuer', { issuer: 'https://evil.example/idp' }],
    ['for another SP', { destination: 'https://other-sp.example/slo' }],
    ['expired', { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }],
  ] as const)('refuses an IdP LogoutRequest %s, and the session stays', async (_name, change) => {
    const { client } = await signIn('slovendor');
    const res = await client.get(`/api/saml/slo?${logoutRequest(change)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      errors: ['This logout request was not sent by the identity provider the portal trusts.'],
    });
    expect(await isSignedIn(client)).toBe(true);
    const last = (await audits('signout')).at(-1);
    expect(last).toMatchObject({ outcome: 'failure' });
    expect(JSON.stringify(last?.details)).not.toContain('SAMLRequest');
  });

  it('ends the sessions an IdP LogoutRequest names and answers with a signed LogoutResponse', async () => {
    const first = await signIn('slovendor', { sessionIndex: '_idp-session-1' });
    const second = await signIn('slovendor', { sessionIndex: '_idp-session-2' });
    const res = await first.client.get(`/api/saml/slo?${logoutRequest({ sessionIndex: '_idp-session-1' })}`);
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(EXTERNAL_IDP.sloUrl);
    expect(location.searchParams.get('RelayState')).toBe('idp-state');
    const response = inflateMessage(location.searchParams.get('SAMLResponse') ?? '');
    expect(response).toContain('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect(response).toContain(`Destination="${EXTERNAL_IDP.sloUrl}"`);
    // The query signature is the SP's, over the binding's octets.
    const raw = String(res.headers.location).split('?')[1] ?? '';
    const signed = raw.split('&Signature=')[0] ?? '';
    const signature = Buffer.from(decodeURIComponent(raw.split('&Signature=')[1] ?? ''), 'base64');
    expect(verify('sha256', Buffer.from(signed), fixtureKeys('sp').certPem, signature)).toBe(true);
    expect(await isSignedIn(first.client)).toBe(false);
    expect(await isSignedIn(second.client)).toBe(true);
    expect((await audits('signout')).at(-1)).toMatchObject({
      outcome: 'success',
      details: { initiatedBy: 'idp', sessions: 1 },
    });
    // Without a session index, every session of that NameID ends.
    await second.client.get(`/api/saml/slo?${logoutRequest()}`);
    expect(await isSignedIn(second.client)).toBe(false);
  });

  it('sends the portal’s own sign-out to the IdP’s logout service and lands home after its answer', async () => {
    const { client } = await signIn('slovendor');
    const res = await client.call((await import('@pra/contracts/endpoints/session')).signOut, {
      headers: { 'x-pra-api-call': 'true' },
    });
    expect(res.statusCode).toBe(200);
    const redirectTo = new URL(res.json<{ redirectTo: string }>().redirectTo);
    expect(`${redirectTo.origin}${redirectTo.pathname}`).toBe(EXTERNAL_IDP.sloUrl);
    const request = inflateMessage(redirectTo.searchParams.get('SAMLRequest') ?? '');
    expect(request).toContain('<saml:NameID');
    expect(request).toContain('slovendor');
    expect(redirectTo.searchParams.get('Signature')).toBeTruthy();
    expect(await isSignedIn(client)).toBe(false);
    const back = await client.get('/api/saml/slo?SAMLResponse=bm90LWEtbWVzc2FnZQ%3D%3D');
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/home');
  });
});
