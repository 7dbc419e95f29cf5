import { createPrivateKey } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { describe, expect, it } from 'vitest';
import { fixtureKeys } from '../../test/support/test-app';
import { signEnveloped } from './xml-signature';
import { element, serialize, type XmlElement } from './xml-tree';

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
    const { root } = tree();
    const innerSigned = signEnveloped(serialize(root), ['Root', 'Inner'], key);
    const xml = signEnveloped(innerSigned, ['Root'], key);
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
