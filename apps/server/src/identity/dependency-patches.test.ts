import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignedXml } from 'xml-crypto';
import { fixtureKeys } from '../../test/support/test-app';
import {
  ID_WALK,
  patchXmlCrypto,
  patchXmldom,
  patchXpath,
  XPATH_PATCHES,
  // @ts-expect-error: a plain .mjs script without types
} from '../../../../scripts/patch-dependencies.mjs';

// scripts/patch-dependencies.mjs (run by npm's postinstall) patches every installed copy of xpath
// (Object.assign for its for-in `assign`, evaluation contexts without throwaway resolvers, one shared
// parser), of @xmldom/xmldom (cloneNode's field copy by Object.keys) and of xml-crypto (a
// Reference's element found by one walk instead of xpath). These tests hold that the
// copies the sign-in path uses are patched, that the patches change no answer, and that they are
// exact and idempotent.

const require = createRequire(import.meta.url);

/** Each patch is checked on a copy written with either line ending. */
const LINE_ENDINGS = [
  ['LF', '\n'],
  ['CRLF', '\r\n'],
] as const;

/** A require as `owner` (a package name) has it: the copies of its dependencies it loads. */
function requireOf(owner: string): NodeJS.Require {
  return createRequire(require.resolve(`${owner}/package.json`));
}

const ORIGINAL = [
  '    function assign(target, varArgs) { // .length of function is 2',
  '        var to = Object(target);',
  '',
  '        for (var index = 1; index < arguments.length; index++) {',
  '            var nextSource = arguments[index];',
  '',
  '            if (nextSource != null) { // Skip over if undefined or null',
  '                for (var nextKey in nextSource) {',
  '                    // Avoid bugs when hasOwnProperty is shadowed',
  '                    if (Object.prototype.hasOwnProperty.call(nextSource, nextKey)) {',
  '                        to[nextKey] = nextSource[nextKey];',
  '                    }',
  '                }',
  '            }',
  '        }',
  '',
  '        return to;',
  '    }',
];

/** The other originals the patches replace, as xpath 0.0.33 and 0.0.34 write them. */
const EXTEND = [
  '    XPathContext.prototype.extend = function (newProps) {',
  '        return assign(new XPathContext(), this, newProps);',
  '    };',
];
const EVALUATE = '        var xpc = assign(new XPathContext(), c);';
const SELECT = [
  '    exports.selectWithResolver = function (e, doc, resolver, single) {',
  '        var expression = new XPathExpression(e, resolver, new XPathParser());',
];

interface Patch {
  name: string;
  mark: string;
}
const patches = XPATH_PATCHES as Patch[];

/** A stand-in for xpath.js holding every original, with other lines around them. */
function unpatched(eol: string, leave: string | null = null): string {
  const parts: Record<string, string[]> = {
    assign: ORIGINAL,
    extend: EXTEND,
    evaluate: [EVALUATE],
    parser: SELECT,
  };
  return [
    '(function () {',
    ...Object.entries(parts).flatMap(([name, lines]) => [
      ...(name === leave ? [] : lines),
      `    // after ${name}`,
    ]),
    '})();',
  ].join(eol);
}

/** The xpath module that `owner` loads. */
function xpathModule(owner: string) {
  return requireOf(owner)('xpath') as {
    select(expression: string, node: unknown): unknown;
    useNamespaces(map: Record<string, string>): (expression: string, node: unknown) => unknown;
  };
}

describe('the xpath patch', () => {
  it.each(['xml-crypto', '@node-saml/node-saml', 'samlify'])('is in the xpath that %s loads', (owner) => {
    const source = readFileSync(requireOf(owner).resolve('xpath'), 'utf8');
    for (const patch of patches) expect(source).toContain(patch.mark);
    expect(source).not.toContain('for (var nextKey in nextSource)');
    expect(source).not.toContain('new XPathContext(), this, newProps');
    expect(source).not.toContain('assign(new XPathContext(), c)');
    expect(source).not.toContain('resolver, new XPathParser()');
  });

  it.each(LINE_ENDINGS)('replaces exactly the originals (%s) and is idempotent', (_, eol) => {
    const once = patchXpath(unpatched(eol)) as string;
    for (const patch of patches) expect(once).toContain(patch.mark);
    for (const name of ['assign', 'extend', 'evaluate', 'parser'])
      expect(once).toContain(`${eol}    // after ${name}${eol}`);
    expect(once.startsWith(`(function () {${eol}    function assign(target, varArgs) {`)).toBe(true);
    expect(once.endsWith(`${eol}})();`)).toBe(true);
    expect(once).not.toContain('nextKey');
    expect(once).not.toContain('assign(new XPathContext()');
    expect(once).not.toContain('resolver, new XPathParser())');
    expect(once).toContain('function contextFrom(source)');
    expect(once.split(eol).every((line) => !line.includes('\n') && !line.includes('\r'))).toBe(true);
    expect(patchXpath(once)).toBe(once);
  });

  it('patches a copy that has only the earlier assign patch, leaving that one as it is', () => {
    const assignPatched = [
      '    function assign(target, varArgs) { // PRA Portal patch: Object.assign (scripts/patch-dependencies.mjs)',
      '        return Object.assign.apply(Object, arguments);',
      '    }',
    ];
    const earlier = unpatched('\n').replace(ORIGINAL.join('\n'), assignPatched.join('\n'));
    expect(earlier).toContain(assignPatched[0]);
    const patched = patchXpath(earlier) as string;
    expect(patched).toBe(patchXpath(unpatched('\n')));
  });

  it.each(['assign', 'extend', 'evaluate', 'parser'])(
    'leaves a copy without the %s original alone',
    (name) => {
      expect(patchXpath(unpatched('\n', name))).toBeNull();
    },
  );

  it('leaves an unknown text alone', () => {
    expect(patchXpath('function assign(a, b) { return a; }')).toBeNull();
  });

  it('answers the selects of a signature check with the elements they name', () => {
    const xpath = xpathModule('xml-crypto') as {
      select(expression: string, node: unknown): Array<{ localName: string }>;
    };
    const doc = new DOMParser().parseFromString(
      '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r"><x ID="_a"><y Id="_b"/><z id="_a"/></x>' +
        '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo/></ds:Signature></samlp:Response>',
      'text/xml',
    );
    const ids = (attr: string, value: string) =>
      xpath.select(`//*[@*[local-name(.)='${attr}']='${value}']`, doc).map((n) => n.localName);
    expect(ids('ID', '_a')).toEqual(['x']);
    expect(ids('id', '_a')).toEqual(['z']);
    expect(ids('Id', '_b')).toEqual(['y']);
    expect(ids('ID', '_b')).toEqual([]);
    expect(xpath.select("//*[local-name()='SignedInfo']", doc).map((n) => n.localName)).toEqual([
      'SignedInfo',
    ]);
    expect(
      xpath
        .select(
          ".//*[local-name(.)='Signature' and namespace-uri(.)='http://www.w3.org/2000/09/xmldsig#']",
          doc,
        )
        .map((n) => n.localName),
    ).toEqual(['Signature']);
  });

  it.each(['xml-crypto', '@node-saml/node-saml'])(
    'keeps namespaces, functions and positions inside predicates, and parses on after an error (%s)',
    (owner) => {
      const xpath = xpathModule(owner);
      const doc = new DOMParser().parseFromString(
        '<r xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><a n="1"/><ds:Signature><ds:SignedInfo/></ds:Signature>' +
          '<a n="2"><b/><b/></a><a n="3"/></r>',
        'text/xml',
      );
      const names = (found: unknown) =>
        (found as Array<{ nodeName: string; getAttribute?(n: string): string }>).map(
          (n) => `${n.nodeName}${n.getAttribute?.('n') ?? ''}`,
        );
      const ds = xpath.useNamespaces({ ds: 'http://www.w3.org/2000/09/xmldsig#' });
      expect(names(ds('//*[ds:SignedInfo]', doc))).toEqual(['ds:Signature']);
      expect(names(ds('//ds:Signature[count(ds:*) = 1]/ds:SignedInfo', doc))).toEqual(['ds:SignedInfo']);
      expect(names(xpath.select('//a[position() = last()]', doc))).toEqual(['a3']);
      expect(names(xpath.select('//a[2]', doc))).toEqual(['a2']);
      expect(names(xpath.select("//a[count(b) = 2 and @n = '2']", doc))).toEqual(['a2']);
      expect(names(xpath.select("//*[local-name(.) = 'a'][@n > 1]", doc))).toEqual(['a2', 'a3']);
      expect(xpath.select('count(//b)', doc)).toBe(2);
      expect(() => xpath.select('//a[', doc)).toThrow();
      expect(() => ds('//nope:a', doc)).toThrow();
      expect(names(xpath.select('//a[1]', doc))).toEqual(['a1']);
    },
  );
});

describe('xml-crypto with the patched xpath', () => {
  const keys = fixtureKeys('idp');
  const signed = (() => {
    const signer = new SignedXml({
      privateKey: keys.privateKeyPem,
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    signer.addReference({
      xpath: "//*[local-name(.)='A']",
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      transforms: [
        'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
        'http://www.w3.org/2001/10/xml-exc-c14n#',
      ],
    });
    signer.computeSignature('<R><A ID="_a"><Who>vendorone</Who></A></R>');
    return signer.getSignedXml();
  })();
  const check = (xml: string) => {
    const verifier = new SignedXml({ publicCert: keys.certPem });
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    verifier.loadSignature(verifier.findSignatures(doc)[0]!);
    return verifier.checkSignature(xml);
  };

  it('verifies the signed element it finds by its ID', () => {
    expect(check(signed)).toBe(true);
  });

  it("refuses a document where a forged element carries the signed one's ID (signature wrapping)", () => {
    const wrapped = signed.replace('<A ID="_a">', '<A ID="_a"><Who>victim</Who></A><A ID="_a">');
    expect(() => check(wrapped)).toThrow(/multiple elements with the same value for the ID/);
  });

  it("refuses a forged element carrying the signed one's ID as a namespace declaration, as xpath's @* did", () => {
    const wrapped = signed.replace('<A ID="_a">', '<A xmlns:ID="_a"><Who>victim</Who></A><A ID="_a">');
    expect(() => check(wrapped)).toThrow(/multiple elements with the same value for the ID/);
  });
});

/** @xmldom/xmldom 0.8's field copy in cloneNode, as it is written there (tabs). */
const CLONE_COPY = [
  '\t\t\tfor (var n in srcNode) {',
  '\t\t\t\tif (Object.prototype.hasOwnProperty.call(srcNode, n)) {',
  '\t\t\t\t\tvar v = srcNode[n];',
  "\t\t\t\t\tif (typeof v != 'object') {",
  '\t\t\t\t\t\tif (v != destNode[n]) {',
  '\t\t\t\t\t\t\tdestNode[n] = v;',
  '\t\t\t\t\t\t}',
  '\t\t\t\t\t}',
  '\t\t\t\t}',
  '\t\t\t}',
];

describe('the @xmldom/xmldom patch', () => {
  it.each(['xml-crypto', '@node-saml/node-saml'])('is in the @xmldom/xmldom that %s loads', (owner) => {
    const source = readFileSync(requireOf(owner).resolve('@xmldom/xmldom/lib/dom.js'), 'utf8');
    expect(source).toContain('PRA Portal patch: Object.keys');
    expect(source).not.toContain('for (var n in srcNode)');
  });

  it.each(LINE_ENDINGS)('replaces exactly the field copy (%s) and is idempotent', (_, eol) => {
    const before = ['function enter(srcNode) {', ...CLONE_COPY, '\t\t\tif (srcNode.childNodes) {', '}'].join(
      eol,
    );
    const once = patchXmldom(before) as string;
    expect(once).toContain('PRA Portal patch: Object.keys');
    expect(once).toContain('var ownKeys = Object.keys(srcNode);');
    expect(once).not.toContain('for (var n in srcNode)');
    expect(once.startsWith(`function enter(srcNode) {${eol}`)).toBe(true);
    expect(once.endsWith(`${eol}\t\t\tif (srcNode.childNodes) {${eol}}`)).toBe(true);
    expect(once.split(eol).every((line) => !line.includes('\n') && !line.includes('\r'))).toBe(true);
    expect(patchXmldom(once)).toBe(once);
    expect(patchXmldom('function enter(srcNode) {}')).toBeNull();
  });

  it('clones a signed SAML element into the same document text, fields and all', () => {
    const xml =
      '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r" Version="2.0">' +
      '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a"><!-- note -->' +
      '<saml:Subject><saml:NameID Format="urn:x">vendor &amp; co</saml:NameID></saml:Subject>' +
      '<![CDATA[<raw>]]><?pi data?></saml:Assertion></samlp:Response>';
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const assertion = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Assertion')[0]!;
    const clone = assertion.cloneNode(true) as Element;
    const text = (node: Node) => new XMLSerializer().serializeToString(node);
    expect(text(clone)).toBe(text(assertion));
    expect(clone).not.toBe(assertion);
    expect(clone.ownerDocument).toBe(doc);
    expect([clone.prefix, clone.localName, clone.namespaceURI, clone.getAttribute('ID')]).toEqual([
      'saml',
      'Assertion',
      'urn:oasis:names:tc:SAML:2.0:assertion',
      '_a',
    ]);
    const nameId = clone.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'NameID')[0]!;
    expect(nameId.textContent).toBe('vendor & co');
    expect(nameId.getAttributeNode('Format')?.ownerElement).toBe(nameId);
    const shallow = assertion.cloneNode(false) as Element;
    expect(text(shallow)).toBe(
      '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a"/>',
    );
  });
});

/** xml-crypto 6.3's lookup of a Reference's element, as validateReference writes it. */
const ID_LOOKUP = [
  "                const tmp_elemXpath = `//*[@*[local-name(.)='${attr}']='${uri}']`;",
  '                const tmp_elem = xpath.select(tmp_elemXpath, doc);',
];

describe('the xml-crypto patch', () => {
  it.each(['@node-saml/node-saml'])('is in the xml-crypto that %s loads', (owner) => {
    const source = readFileSync(requireOf(owner).resolve('xml-crypto/lib/signed-xml.js'), 'utf8');
    expect(source).toContain('PRA Portal patch: the ID lookup by one walk');
    expect(source).not.toContain('const tmp_elem = xpath.select(tmp_elemXpath, doc);');
  });

  it.each(LINE_ENDINGS)('replaces exactly the lookup (%s) and is idempotent', (_, eol) => {
    const before = ['        for (const attr of this.idAttributes) {', ...ID_LOOKUP, '        }'].join(eol);
    const once = patchXmlCrypto(before) as string;
    expect(once).toContain('PRA Portal patch: the ID lookup by one walk');
    expect(once).not.toContain('xpath.select');
    expect(once.split(eol)[1]).toBe(ID_LOOKUP[0]);
    expect(once.split(eol).every((line) => !line.includes('\n') && !line.includes('\r'))).toBe(true);
    expect(patchXmlCrypto(once)).toBe(once);
  });

  it('leaves an unknown text alone', () => {
    expect(patchXmlCrypto('const tmp_elem = somethingElse(doc);')).toBeNull();
  });

  it('selects exactly what the xpath selects, on random documents', () => {
    // The patch's own lines, run as the installed copy runs them inside validateReference.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const walk = new Function(
      'doc',
      'attr',
      'uri',
      `${(ID_WALK as string[]).join('\n')}\nreturn tmp_elem;`,
    ) as (doc: Document, attr: string, uri: string) => Element[];
    const xpath = requireOf('xml-crypto')('xpath') as { select: (e: string, doc: Node) => Node[] };
    const VALUES = ['_a', '_b', '', ' _a', '_A'];
    const value = fc.constantFrom(...VALUES);
    // ID-like attributes of every kind xpath's @* sees: plain, in a namespace, a namespace declaration.
    const attributeName = fc.constantFrom(
      'ID',
      'Id',
      'id',
      'iD',
      'p:ID',
      'q:Id',
      'xmlns:ID',
      'xmlns:id',
      'IDx',
      'Name',
    );
    const attributes = fc.uniqueArray(fc.tuple(attributeName, value), { selector: ([n]) => n, maxLength: 3 });
    const tree = fc.letrec<{ node: string }>((tie) => ({
      node: fc
        .tuple(
          fc.constantFrom('R', 'p:A', 'q:B', 'C'),
          attributes,
          fc.array(fc.oneof({ maxDepth: 4 }, fc.constant('text'), tie('node')), { maxLength: 3 }),
        )
        .map(([name, attrs, children]) => {
          const written = attrs.map(([n, v]) => ` ${n}="${v}"`).join('');
          return `<${name}${written}>${children.join('')}</${name}>`;
        }),
    })).node;
    const sizes = new Set<number>();
    fc.assert(
      fc.property(
        tree,
        fc.constantFrom('Id', 'ID', 'id'),
        fc.constantFrom(...VALUES.filter(Boolean)),
        (body, attr, uri) => {
          const xml = `<Doc xmlns:p="urn:p" xmlns:q="urn:q">${body}</Doc>`;
          const doc = new DOMParser().parseFromString(xml, 'text/xml');
          const expected = xpath.select(`//*[@*[local-name(.)='${attr}']='${uri}']`, doc);
          const found = walk(doc, attr, uri);
          expect(found.length).toBe(expected.length);
          expect(found.every((e, i) => e === expected[i])).toBe(true);
          sizes.add(Math.min(expected.length, 2));
        },
      ),
      {
        numRuns: 300,
        // Matches as siblings, nested and apart: their order is the document's.
        examples: [
          ['<A ID="_a"></A><B><C ID="_a"><p:A xmlns:ID="_a"></p:A></C></B><q:B q:ID="_a"></q:B>', 'ID', '_a'],
        ],
      },
    );
    // The documents had no match, one, and several (which xml-crypto refuses as a wrapping).
    expect([...sizes].sort()).toEqual([0, 1, 2]);
  });
});
