import { createHash, sign, type KeyObject } from 'node:crypto';
import { canonicalize, element, type XmlElement } from './xml-tree';

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** The namespaces declared above `target` in `node`'s tree, or null when it is not in it. */
function scopeAbove(
  node: XmlElement,
  target: XmlElement,
  inScope: Record<string, string>,
): Record<string, string> | null {
  if (node === target) return inScope;
  const scope = { ...inScope, ...node.namespaces };
  for (const child of node.children ?? []) {
    if (typeof child === 'string') continue;
    const found = scopeAbove(child, target, scope);
    if (found) return found;
  }
  return null;
}

const withAlgorithm = (name: string, uri: string) => element(`ds:${name}`, [['Algorithm', uri]]);

/**
 * Signs `target` (an element of the `root` tree, with an `ID`) with an enveloped XML signature:
 * RSA-SHA256, a SHA-256 digest after the enveloped and exclusive c14n transforms, exclusive c14n
 * of the SignedInfo, no KeyInfo (the SP pins the certificate). The digest and the SignedInfo are
 * computed from the tree's canonical form (`canonicalize`), so the document is never parsed; the
 * ds:Signature goes into the tree right after the element's first child (SAML's Issuer), where the
 * schema wants it. `xml-tree.test.ts` holds the digests and signature values to those xml-crypto
 * computes over the written document.
 */
export function signEnveloped(root: XmlElement, target: XmlElement, key: KeyObject): void {
  const inScope = scopeAbove(root, target, {});
  if (!inScope) throw new Error('signEnveloped: the element is not in the document');
  const id = target.attributes?.find(([name]) => name === 'ID')?.[1];
  if (!id) throw new Error('signEnveloped: the element has no ID');
  const [issuer, ...rest] = target.children ?? [];
  if (!issuer || typeof issuer === 'string')
    throw new Error('signEnveloped: the element has no Issuer first');
  const digest = createHash('sha256').update(canonicalize(target, inScope)).digest('base64');
  const signedInfo = element(
    'ds:SignedInfo',
    [],
    [
      withAlgorithm('CanonicalizationMethod', EXC_C14N),
      withAlgorithm('SignatureMethod', RSA_SHA256),
      element(
        'ds:Reference',
        [['URI', `#${id}`]],
        [
          element(
            'ds:Transforms',
            [],
            [withAlgorithm('Transform', ENVELOPED), withAlgorithm('Transform', EXC_C14N)],
          ),
          withAlgorithm('DigestMethod', SHA256),
          element('ds:DigestValue', [], [digest]),
        ],
      ),
    ],
  );
  const canonicalSignedInfo = canonicalize(signedInfo, { ...inScope, ds: DSIG });
  const value = sign('sha256', Buffer.from(canonicalSignedInfo), key).toString('base64');
  const signature = element('ds:Signature', [], [signedInfo, element('ds:SignatureValue', [], [value])], {
    ds: DSIG,
  });
  target.children = [issuer, signature, ...rest];
}
