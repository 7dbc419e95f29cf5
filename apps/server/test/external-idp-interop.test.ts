// Interoperability with an identity provider this project did not write: samlify configured as a
// plain IdP from its documentation, trusted by the portal only through the metadata it publishes.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as validator from '@authenio/samlify-xmllint-wasm';
import * as samlify from 'samlify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyPair } from '../src/platform/keys';
import { testDatabaseKinds } from './support/databases';
import { createAccount } from './support/sign-in';
import { createTestApp, fixtureKeys, TestClient, type TestApp } from './support/test-app';

samlify.setSchemaValidator(validator);

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const IDP_ENTITY_ID = 'https://idp.partner.example/saml/metadata';
const IDP_SSO_URL = 'https://idp.partner.example/saml/sso';
const IDP_SLO_URL = 'https://idp.partner.example/saml/slo';

/** The Response template of samlify's documentation, with an AuthnStatement and our attributes. */
const loginResponseTemplate = {
  context:
    '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}">' +
    '<saml:Issuer>{Issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="{StatusCode}"/></samlp:Status>' +
    '<saml:Assertion ID="{AssertionID}" Version="2.0" IssueInstant="{IssueInstant}" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">' +
    '<saml:Issuer>{Issuer}</saml:Issuer><saml:Subject><saml:NameID Format="{NameIDFormat}">{NameID}</saml:NameID>' +
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="{SubjectConfirmationDataNotOnOrAfter}" Recipient="{SubjectRecipient}" InResponseTo="{InResponseTo}"/></saml:SubjectConfirmation></saml:Subject>' +
    '<saml:Conditions NotBefore="{ConditionsNotBefore}" NotOnOrAfter="{ConditionsNotOnOrAfter}"><saml:AudienceRestriction><saml:Audience>{Audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>' +
    '<saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{SessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>' +
    '{AttributeStatement}</saml:Assertion></samlp:Response>',
  attributes: [
    {
      name: 'givenName',
      valueTag: 'givenName',
      nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
      valueXsiType: 'xs:string',
    },
    {
      name: 'sn',
      valueTag: 'sn',
      nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
      valueXsiType: 'xs:string',
    },
    {
      name: 'mail',
      valueTag: 'mail',
      nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
      valueXsiType: 'xs:string',
    },
  ],
};

function partnerIdp(keys: KeyPair) {
  return samlify.IdentityProvider({
    entityID: IDP_ENTITY_ID,
    privateKey: keys.privateKeyPem,
    signingCert: keys.certPem,
    wantAuthnRequestsSigned: true,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'],
    singleSignOnService: [{ Binding: REDIRECT, Location: IDP_SSO_URL }],
    singleLogoutService: [{ Binding: REDIRECT, Location: IDP_SLO_URL }],
    loginResponseTemplate,
  });
}

interface User {
  username: string;
  givenName: string;
  sn: string;
  mail: string;
}

/** samlify's documented customTagReplacement: fill the template's tags for this user and request. */
function templateCallback(
  idp: samlify.IdentityProviderInstance,
  sp: samlify.ServiceProviderInstance,
  user: User,
  requestId: string,
) {
  return (template: string) => {
    const id = `_${randomUUID()}`;
    const now = new Date();
    const fiveMinutesLater = new Date(now.getTime() + 5 * 60_000);
    const acsUrl = sp.entityMeta.getAssertionConsumerService(
      samlify.Constants.wording.binding.post,
    ) as string;
    const values = {
      ID: id,
      AssertionID: `_${randomUUID()}`,
      Destination: acsUrl,
      Audience: sp.entityMeta.getEntityID(),
      SubjectRecipient: acsUrl,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      NameID: user.username,
      Issuer: idp.entityMeta.getEntityID(),
      IssueInstant: now.toISOString(),
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: fiveMinutesLater.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: fiveMinutesLater.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      InResponseTo: requestId,
      SessionIndex: `_${randomUUID()}`,
      attrGivenName: user.givenName,
      attrSn: user.sn,
      attrMail: user.mail,
    };
    return { id, context: samlify.SamlLib.replaceTagsByValue(template, values) };
  };
}

/** The redirect-binding query as samlify's parseLoginRequest wants it, with the signed octets. */
function redirectRequest(location: string) {
  const url = new URL(location);
  const raw = new Map(
    url.search
      .slice(1)
      .split('&')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
  const octetString = ['SAMLRequest', 'RelayState', 'SigAlg']
    .filter((name) => raw.has(name))
    .map((name) => `${name}=${raw.get(name)}`)
    .join('&');
  const query = Object.fromEntries([...url.searchParams.entries()]);
  return { query, octetString };
}

describe.each(testDatabaseKinds)('sign-in through an external samlify IdP on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let idp: samlify.IdentityProviderInstance;
  let sp: samlify.ServiceProviderInstance;
  let accountId: string;

  beforeAll(async () => {
    idp = partnerIdp(fixtureKeys('idp'));
    dir = mkdtempSync(join(tmpdir(), 'pra-external-idp-'));
    const metadataFile = join(dir, 'idp-metadata.xml');
    writeFileSync(metadataFile, idp.getMetadata());
    t = await createTestApp(kind, { IDP: 'external', IDP_METADATA: metadataFile });
    accountId = await createAccount(t, {
      username: 'brmadmin',
      type: 'employee',
      isEmployeeBrm: true,
      isAdmin: true,
    });
    await createAccount(t, { username: 'vendorone' });
    // The IdP knows the portal only from the SP metadata it publishes, as a partner would.
    const metadata = await t.app.inject({ method: 'GET', url: '/api/saml/metadata' });
    expect(metadata.statusCode).toBe(200);
    sp = samlify.ServiceProvider({ metadata: metadata.body, wantMessageSigned: true });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the IdP from its metadata file', () => {
    expect(t.ctx.idp).toMatchObject({ entityId: IDP_ENTITY_ID, ssoUrl: IDP_SSO_URL, logoutUrl: IDP_SLO_URL });
    expect(t.ctx.keys.idp).toBeNull();
    expect(sp.entityMeta.isWantAssertionsSigned()).toBe(true);
  });

  async function startSignIn(client: TestClient, next: string) {
    await client.fetchCsrf();
    const login = await client.get(`/api/saml/login/standard?next=${encodeURIComponent(next)}`);
    expect(login.statusCode).toBe(302);
    const location = String(login.headers.location);
    const parsed = await idp.parseLoginRequest(sp, 'redirect', redirectRequest(location));
    return { location, parsed };
  }

  it('signs in: samlify verifies our AuthnRequest, and its signed response opens a session', async () => {
    const client = new TestClient(t.app);
    const next = '/brm/pending-approvals';
    const { location, parsed } = await startSignIn(client, next);
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(IDP_SSO_URL);
    expect(url.searchParams.get('RelayState')).toBe(next);
    expect(parsed.sigAlg).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const request = parsed.extract.request as {
      id: string;
      destination: string;
      assertionConsumerServiceUrl: string;
    };
    expect(request.id).toMatch(/^_/);
    expect(request.destination).toBe(IDP_SSO_URL);
    expect(request.assertionConsumerServiceUrl).toBe(`${t.ctx.config.publicUrl}/api/saml/acs`);
    // samlify really checks the signature: the same request with another RelayState fails.
    const tampered = redirectRequest(location.replace(/RelayState=[^&]+/, 'RelayState=%2Fevil'));
    await expect(idp.parseLoginRequest(sp, 'redirect', tampered)).rejects.toThrow(
      'ERR_FAILED_MESSAGE_SIGNATURE_VERIFICATION',
    );
    expect(parsed.extract.issuer).toBe(`${t.ctx.config.publicUrl}/api/saml/metadata`);

    const user = {
      username: 'brmadmin',
      givenName: 'Brenda',
      sn: 'Adams',
      mail: 'brenda.adams@hospital.example',
    };
    const response = await idp.createLoginResponse(
      sp,
      { extract: parsed.extract },
      'post',
      {},
      {
        customTagReplacement: templateCallback(idp, sp, user, request.id),
        relayState: next,
      },
    );
    // Both signatures present, as the portal demands.
    const xml = Buffer.from(response.context, 'base64').toString('utf8');
    expect(xml.match(/<ds:Signature\b/g)).toHaveLength(2);

    const acs = await client.postForm('/api/saml/acs', { SAMLResponse: response.context, RelayState: next });
    expect(acs.statusCode).toBe(303);
    expect(acs.headers.location).toBe(next);

    const me = await client.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      id: accountId,
      username: 'brmadmin',
      // An external IdP may carry fresher names; the portal takes them.
      givenName: 'Brenda',
      familyName: 'Adams',
      // The portal's own flags, although the IdP sent no such attribute.
      isEmployeeBrm: true,
      isAdmin: true,
      type: 'employee',
    });
    const status = await client.get('/api/saml/is-authenticated');
    expect(status.json()).toMatchObject({ isAuthenticated: true });

    // Logout points the browser at the IdP's single logout service.
    const logout = await client.get('/api/saml/logout');
    expect(logout.statusCode).toBe(200);
    const redirectTo = logout.json<{ redirectTo?: string }>().redirectTo ?? '';
    expect(redirectTo.startsWith(`${IDP_SLO_URL}?SAMLRequest=`)).toBe(true);
    const status2 = await t.app.inject({
      method: 'GET',
      url: '/api/saml/is-authenticated',
      headers: { cookie: client.cookie },
    });
    expect(status2.json()).toEqual({ isAuthenticated: false });
  });

  it('keeps the stored names when the IdP sends an over-long or multi-line one (never cut, never stored)', async () => {
    for (const [givenName, sn] of [
      ['B'.repeat(300), 'Adams'],
      ['Brenda', 'Adams\nApprove at https://evil.example'],
    ] as const) {
      const client = new TestClient(t.app);
      const { parsed } = await startSignIn(client, '/welcome');
      const request = parsed.extract.request as { id: string };
      const user = { username: 'brmadmin', givenName, sn, mail: 'brenda.adams@hospital.example' };
      const response = await idp.createLoginResponse(
        sp,
        { extract: parsed.extract },
        'post',
        {},
        { customTagReplacement: templateCallback(idp, sp, user, request.id) },
      );
      const acs = await client.postForm('/api/saml/acs', {
        SAMLResponse: response.context,
        RelayState: '/welcome',
      });
      // The sign-in itself stands: only the names are not taken.
      expect(acs.headers.location).toBe('/welcome');
      expect((await client.get('/api/user')).json()).toMatchObject({
        givenName: 'Brenda',
        familyName: 'Adams',
      });
    }
  });

  it('refuses a response from samlify signed with a key the metadata does not name', async () => {
    const client = new TestClient(t.app);
    const { parsed } = await startSignIn(client, '/welcome');
    const request = parsed.extract.request as { id: string };
    const impostor = partnerIdp(fixtureKeys('other'));
    const user = { username: 'brmadmin', givenName: 'Eve', sn: 'Impostor', mail: 'eve@evil.example' };
    const response = await impostor.createLoginResponse(
      sp,
      { extract: parsed.extract },
      'post',
      {},
      {
        customTagReplacement: templateCallback(impostor, sp, user, request.id),
      },
    );
    const acs = await client.postForm('/api/saml/acs', {
      SAMLResponse: response.context,
      RelayState: '/welcome',
    });
    expect(acs.statusCode).toBe(303);
    expect(acs.headers.location).toBe('/auth-failure');
    expect(acs.headers['set-cookie']).toBeUndefined();
    expect((await client.get('/api/user')).statusCode).toBe(401);
    const account = await t.ctx.db
      .selectFrom('accounts')
      .select(['given_name', 'family_name'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(account).not.toEqual({ given_name: 'Eve', family_name: 'Impostor' });
  });

  it('refuses a samlify response for a request the portal never made', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const user = { username: 'vendorone', givenName: 'V', sn: 'One', mail: 'v@example.test' };
    const response = await idp.createLoginResponse(
      sp,
      { extract: { request: { id: '_unsolicited' } } },
      'post',
      {},
      {
        customTagReplacement: templateCallback(idp, sp, user, '_unsolicited'),
      },
    );
    const acs = await client.postForm('/api/saml/acs', { SAMLResponse: response.context });
    expect(acs.statusCode).toBe(303);
    expect(acs.headers.location).toBe('/auth-failure');
    expect((await client.get('/api/user')).statusCode).toBe(401);
  });
});
