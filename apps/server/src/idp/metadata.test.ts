import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import * as samlify from 'samlify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fixtureKeys, type TestApp } from '../../test/support/test-app';
import { builtinIdpDescription, loadIdpMetadata } from '../platform/idp-metadata';
import { certBody } from '../platform/keys';
import { builtinIdpMetadata } from './metadata';
import { samlUrls } from './saml-entities';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

const elementChildren = (node: Element) =>
  Array.from(node.childNodes).filter((child): child is Element => child.nodeType === 1);

/** What a metadata document says, read namespace-aware, whatever its prefixes. */
function facts(xml: string) {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  const [descriptor] = elementChildren(root);
  const children = elementChildren(descriptor!);
  const named = (local: string) => children.filter((c) => c.namespaceURI === MD && c.localName === local);
  return {
    root: [root.namespaceURI, root.localName, root.getAttribute('entityID')],
    descriptor: [
      descriptor!.namespaceURI,
      descriptor!.localName,
      descriptor!.getAttribute('WantAuthnRequestsSigned'),
      descriptor!.getAttribute('protocolSupportEnumeration'),
    ],
    keys: named('KeyDescriptor').map((k) => [
      k.getAttribute('use'),
      k.getElementsByTagNameNS(DS, 'X509Certificate')[0]?.textContent?.replace(/\s+/g, ''),
    ]),
    nameIdFormats: named('NameIDFormat').map((n) => n.textContent),
    sso: named('SingleSignOnService').map((s) => [s.getAttribute('Binding'), s.getAttribute('Location')]),
    order: children.map((c) => `${c.namespaceURI === MD ? 'md' : c.namespaceURI}:${c.localName}`),
  };
}

describe("the built-in IdP's metadata", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => t?.close());

  it('says what samlify says for the same IdP: entityID, signed requests, certificate, NameID format, SSO', () => {
    const urls = samlUrls(t.ctx);
    const reference = samlify
      .IdentityProvider({
        entityID: urls.idpEntityId,
        signingCert: fixtureKeys('idp').certPem,
        wantAuthnRequestsSigned: true,
        nameIDFormat: [UNSPECIFIED],
        singleSignOnService: [{ Binding: REDIRECT, Location: urls.ssoUrl }],
      })
      .getMetadata();
    const ours = facts(builtinIdpMetadata(t.ctx));
    expect(ours).toEqual(facts(reference));
    expect(ours.keys).toEqual([['signing', certBody(fixtureKeys('idp').certPem)]]);
    expect(ours.sso).toEqual([[REDIRECT, `${t.ctx.config.publicUrl}/idp/sso`]]);

    const read = samlify.IdentityProvider({ metadata: builtinIdpMetadata(t.ctx) }).entityMeta;
    expect(read.getEntityID()).toBe(urls.idpEntityId);
    expect(read.isWantAuthnRequestsSigned()).toBe(true);
    expect(read.getSingleSignOnService('redirect')).toBe(urls.ssoUrl);
    expect([read.getNameIDFormat()].flat()).toEqual([UNSPECIFIED]);
  });

  it("keeps the metadata schema's rules: every element in its namespace, in the schema's order, required attributes present", () => {
    const ours = facts(builtinIdpMetadata(t.ctx));
    expect(ours.root).toEqual([MD, 'EntityDescriptor', `${t.ctx.config.publicUrl}/idp/metadata`]);
    expect(ours.descriptor).toEqual([MD, 'IDPSSODescriptor', 'true', 'urn:oasis:names:tc:SAML:2.0:protocol']);
    // RoleDescriptorType's KeyDescriptor*, then SSODescriptorType's NameIDFormat*, then
    // IDPSSODescriptorType's SingleSignOnService+.
    expect(ours.order).toEqual(['md:KeyDescriptor', 'md:NameIDFormat', 'md:SingleSignOnService']);
  });

  it("is read back by the portal's SP as the built-in IdP's description", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pra-idp-metadata-'));
    try {
      const file = join(dir, 'idp.xml');
      writeFileSync(file, builtinIdpMetadata(t.ctx));
      const expected = builtinIdpDescription(t.ctx.config.publicUrl, fixtureKeys('idp'));
      expect(await loadIdpMetadata(file)).toEqual({ ...expected, logoutUrl: undefined });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
