// A test app whose IdP is "external": a metadata file naming the fixture IdP key, so tests forge
// that IdP's responses and logout messages (saml-forge.ts) as the hospital's IdP would send them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DbKind } from '../../src/platform/db';
import { certBody } from '../../src/platform/keys';
import { createTestApp, fixtureKeys, type TestApp } from './test-app';

export const EXTERNAL_IDP = {
  entityId: 'https://idp.hospital.test/saml2/idp/metadata.php',
  ssoUrl: 'https://idp.hospital.test/saml2/idp/SSOService.php',
  sloUrl: 'https://idp.hospital.test/saml2/idp/SingleLogoutService.php',
};

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** One IdP's metadata (an md:EntityDescriptor) signing with `certPem`. */
export function idpEntityDescriptor(
  certPem: string,
  idp: { entityId: string; ssoUrl: string; sloUrl?: string } = EXTERNAL_IDP,
  namespaces = ' xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"',
): string {
  return (
    `<md:EntityDescriptor${namespaces} entityID="${idp.entityId}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(certPem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    (idp.sloUrl ? `<md:SingleLogoutService Binding="${REDIRECT}" Location="${idp.sloUrl}"/>` : '') +
    `<md:SingleSignOnService Binding="${REDIRECT}" Location="${idp.ssoUrl}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`
  );
}

/** Writes `xml` to a fresh temporary file and returns its path. */
export function metadataFile(xml: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pra-idp-metadata-')), 'idp.xml');
  writeFileSync(path, xml);
  return path;
}

/** The portal with IDP=external, trusting the fixture IdP key through a metadata file. */
export function createExternalIdpApp(kind: DbKind, env: Record<string, string> = {}): Promise<TestApp> {
  return createTestApp(kind, {
    IDP: 'external',
    IDP_METADATA: metadataFile(idpEntityDescriptor(fixtureKeys('idp').certPem)),
    ...env,
  });
}
