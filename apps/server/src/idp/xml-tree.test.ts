import { createPrivateKey } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { describe, expect, it } from 'vitest';
import { fixtureKeys } from '../../test/support/test-app';
import fc from 'fast-check';
import { signEnveloped } from './xml-signature';
import { canonicalize, element, serialize, type XmlElement } from './xml-tree';

const NS = { a: 'urn:example:a', b: 'urn:example:b' };
/** Values a person's name or an address could carry: markup, quotes, whitespace, non-ASCII. */
const NASTY = `Vendor & Co <"quoted"> 'single' tab\there\nline\r\nfeed ]]> Ünïcødé 名前 🙂`;

function tree(): { root: XmlElement; inner: XmlElement } {
  const inner = element(
    'a:Inner',
    [
      ['ID', '_inner'],
      ['Zeta', NASTY],
      ['b:typed', 'b:string'],
      ['Alpha', '1'],
    ],
    [element('a:Issuer', [], ['issuer']), element('b:Leaf', [['b:x', NASTY]], [NASTY]), 'tail & <text>'],
    { b: NS.b, unused: 'urn:example:unused' },
  );
  const root = element(
    'a:Root',
    [
      ['ID', '_root'],
      ['Version', '2.0'],
    ],
    [element('a:Issuer', [], ['issuer']), element('a:Empty'), inner],
    NS,
  );
  return { root, inner };
}

describe('the IdP XML tree and its signatures', () => {
  it('writes a document whose parsed values are exactly the tree values', () => {
    const doc = new DOMParser().parseFromString(serialize(tree().root), 'text/xml');
    const leaf = doc.getElementsByTagNameNS(NS.b, 'Leaf')[0]!;
    expect(leaf.textContent).toBe(NASTY);
    expect(leaf.getAttributeNS(NS.b, 'x')).toBe(NASTY);
    const inner = doc.getElementsByTagNameNS(NS.a, 'Inner')[0]!;
    expect(inner.getAttribute('Zeta')).toBe(NASTY);
  });

  it('signs enveloped signatures that xml-crypto verifies, nested and outer, and a changed value breaks', () => {
    const key = createPrivateKey(fixtureKeys('idp').privateKeyPem);
    const { root, inner } = tree();
    signEnveloped(root, inner, key);
    signEnveloped(root, root, key);
    const xml = serialize(root);
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const signatures = Array.from(
      doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature'),
    );
    expect(signatures.map((s) => (s.parentNode as Element).getAttribute('ID'))).toEqual(['_root', '_inner']);
    // Each right after its element's Issuer.
    expect(signatures.every((s) => (s.previousSibling as Element).localName === 'Issuer')).toBe(true);
    const verify = (text: string, signature: Element) => {
      const verifier = new SignedXml({ publicCert: fixtureKeys('idp').certPem });
      verifier.loadSignature(signature);
      return verifier.checkSignature(text);
    };
    for (const signature of signatures) expect(verify(xml, signature)).toBe(true);

    const tampered = xml.replace('Alpha="1"', 'Alpha="2"');
    const tamperedDoc = new DOMParser().parseFromString(tampered, 'text/xml');
    const tamperedSignatures = Array.from(
      tamperedDoc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature'),
    );
    const passes = (signature: Element) => {
      try {
        return verify(tampered, signature);
      } catch {
        return false;
      }
    };
    expect(tamperedSignatures.map(passes)).toEqual([false, false]);
  });

  it('computes the digests and signature values xml-crypto computes over the written document', () => {
    const key = createPrivateKey(fixtureKeys('idp').privateKeyPem);
    fc.assert(
      fc.property(documents, ({ root, inner }) => {
        const reference = signedByXmlCrypto(serialize(root), pathTo(root, inner), key);
        signEnveloped(root, inner, key);
        signEnveloped(root, root, key);
        const ours = serialize(root);
        expect(signatureValues(ours)).toEqual(signatureValues(reference));
      }),
      { numRuns: 60 },
    );
  });

  it('refuses what it cannot canonicalize rather than guess', () => {
    expect(() => canonicalize(element('Unprefixed'))).toThrow(/not a declared prefix/);
    expect(() => canonicalize(element('a:X', [['c:y', '1']]), NS)).toThrow(/"c" is not a declared prefix/);
    const key = createPrivateKey(fixtureKeys('idp').privateKeyPem);
    const { root } = tree();
    expect(() => signEnveloped(root, element('a:Elsewhere', [['ID', '_x']]), key)).toThrow(
      /not in the document/,
    );
    const noId = element('a:Inner', [], [element('a:Issuer', [], ['i'])], NS);
    expect(() => signEnveloped(noId, noId, key)).toThrow(/no ID/);
  });
});

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

/** The reference signer: xml-crypto over the written document, the inner element then the root. */
function signedByXmlCrypto(xml: string, innerPath: string[], key: ReturnType<typeof createPrivateKey>) {
  const pathOf = (names: string[]) => names.map((n) => `/*[local-name(.)='${n}']`).join('');
  const signOne = (document: string, path: string[]) => {
    const signer = new SignedXml({
      privateKey: key,
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    signer.addReference({
      xpath: pathOf(path),
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      transforms: [
        'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
        'http://www.w3.org/2001/10/xml-exc-c14n#',
      ],
    });
    signer.computeSignature(document, {
      prefix: 'ds',
      location: { reference: `${pathOf(path)}/*[1]`, action: 'after' },
    });
    return signer.getSignedXml();
  };
  return signOne(signOne(xml, innerPath), [innerPath[0]!]);
}

/** Each signature's DigestValue and SignatureValue, in document order. */
function signatureValues(xml: string): string[] {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  return ['DigestValue', 'SignatureValue'].flatMap((name) =>
    Array.from(doc.getElementsByTagNameNS(DSIG, name)).map((e) => `${name} ${e.textContent}`),
  );
}

/** Local names from the root down to `target`. */
function pathTo(root: XmlElement, target: XmlElement): string[] {
  const local = (e: XmlElement) => e.name.slice(e.name.indexOf(':') + 1);
  if (root === target) return [local(root)];
  for (const child of root.children ?? []) {
    if (typeof child === 'string') continue;
    const below = pathTo(child, target);
    if (below.length) return [local(root), ...below];
  }
  return [];
}

/**
 * Random documents shaped like the IdP's: a root with an Issuer first and a nested signed element
 * (also with an Issuer first), prefixes declared high and used low, unused declarations, a prefix
 * declared again with another URI below, attributes of both kinds in random order, and values
 * from markup, whitespace, quotes, non-ASCII and astral characters.
 */
const value = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '0',
    ' ',
    '&',
    '<',
    '>',
    '"',
    "'",
    '\t',
    '\n',
    '\r',
    ']',
    'é',
    '名',
    '🙂',
    ':',
    '=',
  ),
  maxLength: 12,
});
const localName = fc.constantFrom('Alpha', 'beta', 'Gamma', 'ID2', 'Zeta', 'x', 'Y');
const PREFIX_URIS: Record<string, string> = { p: 'urn:example:p', q: 'urn:example:q', r: 'urn:example:r' };
const prefixed = fc.tuple(fc.constantFrom('p', 'q', 'r'), localName).map(([p, l]) => `${p}:${l}`);
const attributes = fc
  .uniqueArray(fc.tuple(fc.oneof(localName, prefixed), value), { selector: ([name]) => name, maxLength: 5 })
  .map((list) => list.filter(([name]) => name !== 'ID'));
const leaf: fc.Arbitrary<XmlElement> = fc
  .tuple(prefixed, attributes, fc.array(value, { maxLength: 2 }))
  .map(([name, attrs, texts]) => element(name, attrs, texts));
const branch = fc
  .tuple(prefixed, attributes, fc.array(fc.oneof(leaf, value), { maxLength: 3 }), fc.boolean())
  .map(([name, attrs, children, redeclare]) =>
    element(name, attrs, children, redeclare ? { q: 'urn:example:q-again' } : undefined),
  );
const documents = fc
  .tuple(
    attributes,
    fc.array(fc.oneof(branch, leaf, value), { maxLength: 3 }),
    attributes,
    fc.array(fc.oneof(branch, leaf), { maxLength: 3 }),
    fc.boolean(),
  )
  .map(([rootAttrs, rootChildren, innerAttrs, innerChildren, unusedOnInner]) => {
    const inner = element(
      'a:Inner',
      [['ID', '_inner'], ...innerAttrs],
      [element('a:Issuer', [], ['issuer']), ...innerChildren],
      unusedOnInner ? { unused: 'urn:example:unused', r: PREFIX_URIS.r! } : undefined,
    );
    const root = element(
      'a:Root',
      [['ID', '_root'], ...rootAttrs],
      [element('a:Issuer', [], ['issuer']), ...rootChildren, inner],
      { ...NS, ...PREFIX_URIS },
    );
    return { root, inner };
  });
