import { createPrivateKey } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { ExclusiveCanonicalization, SignedXml } from 'xml-crypto';
import { describe, expect, it } from 'vitest';
import { fixtureKeys } from '../../test/support/test-app';
import { canonicalize, element, serialize, signEnveloped, type XmlElement } from './xml-tree';

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

/** xml-crypto's exclusive canonicalization of the element with this ID in the parsed document. */
function theirCanonical(xml: string, id: string): string {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const all = Array.from(doc.getElementsByTagName('*'));
  const target = all.find((e) => e.getAttribute('ID') === id);
  if (!target) throw new Error(`no element ${id}`);
  return new ExclusiveCanonicalization().process(target, {}).toString();
}

describe('the IdP XML tree', () => {
  it('writes a document whose parsed values are exactly the tree values', () => {
    const doc = new DOMParser().parseFromString(serialize(tree().root), 'text/xml');
    const leaf = doc.getElementsByTagNameNS(NS.b, 'Leaf')[0]!;
    expect(leaf.textContent).toBe(NASTY);
    expect(leaf.getAttributeNS(NS.b, 'x')).toBe(NASTY);
    const inner = doc.getElementsByTagNameNS(NS.a, 'Inner')[0]!;
    expect(inner.getAttribute('Zeta')).toBe(NASTY);
  });

  it('canonicalizes exactly as xml-crypto does, for the whole document and for a subtree', () => {
    const { root, inner } = tree();
    const xml = serialize(root);
    expect(canonicalize(root)).toBe(theirCanonical(xml, '_root'));
    expect(canonicalize(inner, NS)).toBe(theirCanonical(xml, '_inner'));
    // A subtree declares what it uses that its ancestors declared, and nothing it does not use.
    expect(canonicalize(inner, NS)).toMatch(
      /^<a:Inner xmlns:a="urn:example:a" xmlns:b="urn:example:b" Alpha=/,
    );
    expect(canonicalize(inner, NS)).not.toContain('unused');
  });

  it('refuses a prefix no element declares', () => {
    expect(() => canonicalize(element('c:Stray'))).toThrow(/prefix c/);
  });

  it('signs enveloped signatures that xml-crypto verifies, nested and outer, and a changed value breaks', () => {
    const key = createPrivateKey(fixtureKeys('idp').privateKeyPem);
    const { root, inner } = tree();
    signEnveloped(inner, key, NS);
    signEnveloped(root, key);
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
});
