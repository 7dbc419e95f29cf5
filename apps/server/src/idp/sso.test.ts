import { sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { SAML } from '@node-saml/node-saml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { ssoPath } from '../../test/support/idp-kit';
import { createTestApp, fixtureKeys, TestClient, type TestApp } from '../../test/support/test-app';
import { certBody } from '../platform/keys';
import { acceptAuthnRequest } from './authn-request';
import { samlUrls } from './saml-entities';
import { builtinIdpMetadata } from './metadata';

/** A redirect-binding path for any XML, signed with the SP's fixture key like node-saml signs. */
function signedRedirect(xml: string): string {
  const query = new URLSearchParams({
    SAMLRequest: deflateRawSync(Buffer.from(xml)).toString('base64'),
    SigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  }).toString();
  const signature = sign('sha256', Buffer.from(query), fixtureKeys('sp').privateKeyPem).toString('base64');
  return `/idp/sso?${query}&Signature=${encodeURIComponent(signature)}`;
}

describe.each(testDatabaseKinds)('built-in IdP metadata and SSO on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('serves its metadata with entityID, redirect SSO URL and signing certificate', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/idp/metadata' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/xml/);
    const base = t.ctx.config.publicUrl;
    expect(res.body).toContain(`entityID="${base}/idp/metadata"`);
    expect(res.body).toContain(`Location="${base}/idp/sso"`);
    expect(res.body).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect');
    expect(res.body).toContain('WantAuthnRequestsSigned="true"');
    expect(res.body).toContain(certBody(fixtureKeys('idp').certPem));
    expect(builtinIdpMetadata(t.ctx)).toBe(res.body);
  });

  it('accepts a signed AuthnRequest and continues at the login page with a session', async () => {
    const client = new TestClient(t.app);
    const res = await client.get(ssoPath(t.ctx, { relayState: 'relay-1' }).path);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/idp/login');
    expect(client.cookie).toMatch(/(^|; )pra_session=/);
    const state = await t.ctx.db.selectFrom('sessions').select('data').execute();
    expect(
      state.some((row) => (row.data.idp as { relayState?: string } | undefined)?.relayState === 'relay-1'),
    ).toBe(true);
  });

  it("accepts an AuthnRequest made by node-saml, the library of the portal's SP", async () => {
    const urls = samlUrls(t.ctx);
    const sp = new SAML({
      entryPoint: urls.ssoUrl,
      issuer: urls.spEntityId,
      callbackUrl: urls.acsUrl,
      idpCert: fixtureKeys('idp').certPem,
      privateKey: fixtureKeys('sp').privateKeyPem,
      signatureAlgorithm: 'sha256',
    });
    const url = new URL(await sp.getAuthorizeUrlAsync('/welcome?a=1 2', undefined, {}));
    const pending = await acceptAuthnRequest(t.ctx, `${url.pathname}${url.search}`);
    // node-saml asks for PasswordProtectedTransport (exact) unless told otherwise: the IdP keeps it.
    expect(pending).toEqual({
      requestId: expect.stringMatching(/^_/),
      relayState: '/welcome?a=1 2',
      requestedAuthnContext: {
        classRefs: ['urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport'],
        comparison: 'exact',
      },
    });
  });

  it('refuses an unsigned AuthnRequest', async () => {
    const { path } = ssoPath(t.ctx);
    const url = new URL(path, 'http://x');
    url.searchParams.delete('Signature');
    url.searchParams.delete('SigAlg');
    const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Sign-in request refused');
    await expect(acceptAuthnRequest(t.ctx, `${url.pathname}${url.search}`)).rejects.toThrow(
      'unsigned request',
    );
  });

  it('refuses an AuthnRequest signed with another key', async () => {
    const { path } = ssoPath(t.ctx, { key: fixtureKeys('other') });
    const res = await t.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(400);
    await expect(acceptAuthnRequest(t.ctx, path)).rejects.toThrow('signature or schema check failed');
  });

  it('refuses a request whose RelayState was changed after signing', async () => {
    const { path } = ssoPath(t.ctx, { relayState: 'genuine' });
    const forged = path.replace('RelayState=genuine', 'RelayState=forged');
    expect(forged).not.toBe(path);
    const res = await t.app.inject({ method: 'GET', url: forged });
    expect(res.statusCode).toBe(400);
    await expect(acceptAuthnRequest(t.ctx, forged)).rejects.toThrow('signature or schema check failed');
  });

  it('refuses an AuthnRequest asking for an unregistered ACS and never posts there', async () => {
    const evil = 'https://evil.example/acs';
    const { path } = ssoPath(t.ctx, { acsUrl: evil });
    const res = await t.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(400);
    await expect(acceptAuthnRequest(t.ctx, path)).rejects.toThrow('unregistered ACS');
    expect(res.body).not.toContain('evil.example');
    expect(res.headers.location).toBeUndefined();
  });

  describe('a request signed by the SP key', () => {
    const request = () => {
      const urls = samlUrls(t.ctx);
      return (
        `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ` +
        `xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_hand1" Version="2.0" ` +
        `IssueInstant="${new Date().toISOString()}" Destination="${urls.ssoUrl}" ` +
        `AssertionConsumerServiceURL="${urls.acsUrl}">` +
        `<saml:Issuer>${urls.spEntityId}</saml:Issuer></samlp:AuthnRequest>`
      );
    };

    it('is accepted when it is a schema-valid AuthnRequest from the SP', async () => {
      await expect(acceptAuthnRequest(t.ctx, signedRedirect(request()))).resolves.toEqual({
        requestId: '_hand1',
        relayState: null,
      });
    });

    it.each<[string, (xml: string) => string, string]>([
      [
        'fails the schema',
        (xml) => xml.replace('Version="2.0"', 'Version="2.0" Evil="1"'),
        'signature or schema check failed',
      ],
      ['carries a DOCTYPE', (xml) => `<!DOCTYPE x [<!ENTITY e "x">]>${xml}`, 'DOCTYPE in request'],
      [
        'is another message',
        (xml) => xml.replace(/AuthnRequest/g, 'LogoutRequest'),
        'signature or schema check failed',
      ],
      [
        'names another issuer',
        (xml) => xml.replace(/<saml:Issuer>[^<]*/, '<saml:Issuer>https://evil.example'),
        'unknown issuer',
      ],
      [
        'has a wrong destination',
        (xml) => xml.replace(/Destination="[^"]*"/, 'Destination="https://evil.example/sso"'),
        'wrong destination',
      ],
      [
        'is stale',
        (xml) => xml.replace(/IssueInstant="[^"]*"/, 'IssueInstant="2020-01-01T00:00:00Z"'),
        'stale request',
      ],
    ])('is refused when it %s', async (_name, change, reason) => {
      await expect(acceptAuthnRequest(t.ctx, signedRedirect(change(request())))).rejects.toThrow(reason);
    });

    it('is refused when it is a valid protocol message that is no AuthnRequest', async () => {
      const urls = samlUrls(t.ctx);
      const xml =
        `<samlp:ArtifactResolve xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ` +
        `xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_hand2" Version="2.0" ` +
        `IssueInstant="${new Date().toISOString()}"><saml:Issuer>${urls.spEntityId}</saml:Issuer>` +
        `<samlp:Artifact>AAAA</samlp:Artifact></samlp:ArtifactResolve>`;
      await expect(acceptAuthnRequest(t.ctx, signedRedirect(xml))).rejects.toThrow('not an AuthnRequest');
    });
  });

  it('refuses a request without SAMLRequest or with garbage', async () => {
    for (const url of [
      '/idp/sso',
      '/idp/sso?SAMLRequest=%%%&SigAlg=x&Signature=y',
      '/idp/sso?SAMLRequest=abc&SigAlg=x&Signature=y',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
    }
  });

  it('serves the stylesheets and the auto-post script as files', async () => {
    for (const [url, type] of [
      ['/server-assets/bootstrap.min.css', /text\/css/],
      ['/idp/assets/idp.css', /text\/css/],
      ['/idp/assets/auto-post.js', /javascript/],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(type);
    }
    expect((await t.app.inject({ method: 'GET', url: '/idp/assets/nope.js' })).statusCode).toBe(404);
  });
});
