import type { KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';

const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** An element of the document by its path of local names from the root, e.g. ['Response', 'Assertion']. */
const pathOf = (localNames: readonly string[]) =>
  localNames.map((name) => `/*[local-name(.)='${name}']`).join('');

/**
 * Signs the element at `path` (local names from the root; it carries an `ID`) of `xml` with an
 * enveloped XML signature made by xml-crypto: RSA-SHA256, a SHA-256 digest after the enveloped and
 * exclusive c14n transforms, exclusive c14n of the SignedInfo, no KeyInfo (the SP pins the
 * certificate). The ds:Signature goes right after the element's first child (SAML's Issuer),
 * where the schema wants it. Returns the document with the signature in it.
 */
export function signEnveloped(xml: string, path: readonly string[], key: KeyObject): string {
  const signer = new SignedXml({
    privateKey: key,
    canonicalizationAlgorithm: EXC_C14N,
    signatureAlgorithm: RSA_SHA256,
  });
  signer.addReference({ xpath: pathOf(path), digestAlgorithm: SHA256, transforms: [ENVELOPED, EXC_C14N] });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${pathOf(path)}/*[1]`, action: 'after' },
  });
  return signer.getSignedXml();
}
