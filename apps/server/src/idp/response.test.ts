import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import {
  createIdpAccount,
  csrfOf,
  inputValue,
  passPasswordStep,
  secretOf,
  totpCode,
} from '../../test/support/idp-kit';
import { createTestApp, fixtureKeys, type TestApp } from '../../test/support/test-app';
import { samlUrls } from './saml-entities';

const FAMILY_NAME = `Vendor & Co <"Ünïcødé"> 'Ltd' ]]> 🙂`;

describe.each(testDatabaseKinds)('built-in IdP SAML response on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function signIn(relayState?: string) {
    const account = await createIdpAccount(t);
    // Names with markup characters, quotes and non-ASCII: the Response must escape them.
    await t.ctx.db
      .updateTable('accounts')
      .set({ given_name: 'Vera', family_name: FAMILY_NAME })
      .where('id', '=', account.id)
      .execute();
    const { client, mfaPage, requestId } = await passPasswordStep(t, account.username, relayState);
    const code = await totpCode(secretOf(mfaPage));
    const res = await client.postForm('/idp/mfa', {
      csrfToken: csrfOf(mfaPage),
      passcode: code,
      nickname: 'Phone',
    });
    return { account, res, requestId, client };
  }

  it('renders a form posting a signed Response to exactly the ACS, auto-submitted by a script file', async () => {
    const { res } = await signIn('/welcome?tab=1&x="y"');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    const forms = [...res.body.matchAll(/<form[^>]*action="([^"]*)"/g)].map((m) => m[1]);
    expect(forms).toEqual([samlUrls(t.ctx).acsUrl]);
    expect(res.body).toMatch(/<script src="\/idp\/assets\/auto-post.js" defer><\/script>/);
    expect(res.body).not.toMatch(/<script(?![^>]*src=)/);
    expect(res.body).toMatch(/>\s*Continue\s*<\/button>/);
    expect(inputValue(res.body, 'RelayState')).toBe('/welcome?tab=1&x="y"');
  });

  it('signs both the Response and the Assertion with RSA-SHA256 and SHA-256 digests', async () => {
    const { res, account, requestId } = await signIn();
    const samlResponse = inputValue(res.body, 'SAMLResponse') ?? '';
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    expect(xml.match(/<ds:SignatureValue>/g)).toHaveLength(2);
    expect(xml).toContain('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(xml).toContain('http://www.w3.org/2001/04/xmlenc#sha256');
    expect(xml).not.toContain('rsa-sha1');
    // No KeyInfo: the SP verifies with the certificate it pins, never one from the document.
    expect(xml).not.toContain('KeyInfo');
    expect(xml).toMatch(/<samlp:Response[^>]*ID="_[^"]+"/);
    expect(xml).toMatch(/<saml:Assertion[^>]*ID="_[^"]+"/);
    expect(xml).toMatch(/SessionIndex="_[^"]+"/);

    const urls = samlUrls(t.ctx);
    const sp = new SAML({
      callbackUrl: urls.acsUrl,
      issuer: urls.spEntityId,
      audience: urls.spEntityId,
      idpCert: fixtureKeys('idp').certPem,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: true,
      validateInResponseTo: ValidateInResponseTo.never,
    });
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse });
    expect(profile?.nameID).toBe(account.username);
    expect(profile?.issuer).toBe(urls.idpEntityId);
    expect(profile?.inResponseTo).toBe(requestId);
    expect(profile?.givenName).toBe('Vera');
    expect(profile?.sn).toBe(FAMILY_NAME);
    expect(profile?.mail).toBe(`${account.username}@example.test`);
    expect(xml).toContain(`Destination="${urls.acsUrl}"`);
    expect(xml).toContain(`Recipient="${urls.acsUrl}"`);
    expect(xml).toContain(`<saml:Audience>${urls.spEntityId}</saml:Audience>`);
  });

  it('is refused by an SP pinning another IdP certificate', async () => {
    const { res } = await signIn();
    const urls = samlUrls(t.ctx);
    const sp = new SAML({
      callbackUrl: urls.acsUrl,
      issuer: urls.spEntityId,
      idpCert: fixtureKeys('other').certPem,
      validateInResponseTo: ValidateInResponseTo.never,
    });
    await expect(
      sp.validatePostResponseAsync({ SAMLResponse: inputValue(res.body, 'SAMLResponse') ?? '' }),
    ).rejects.toThrow(/signature/i);
  });

  it('forgets the sign-in in progress once answered', async () => {
    const { client } = await signIn();
    expect((await client.get('/idp/mfa')).statusCode).toBe(400);
    expect((await client.get('/idp/login')).statusCode).toBe(400);
  });
});
