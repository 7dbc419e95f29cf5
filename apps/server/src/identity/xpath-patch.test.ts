import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { patchXpath, XPATH_PATCH_MARK } from '../../../../scripts/patch-dependencies.mjs';

// scripts/patch-dependencies.mjs (run by npm's postinstall) replaces xpath's for-in `assign` with
// Object.assign in every installed copy. These tests hold that the copies the sign-in path uses
// are patched, that the patch changes no answer, and that it is exact and idempotent.

const require = createRequire(import.meta.url);

/** The xpath.js that `owner` (a package name) loads. */
function xpathOf(owner: string): string {
  const ownerRequire = createRequire(require.resolve(`${owner}/package.json`));
  return ownerRequire.resolve('xpath');
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

describe('the xpath patch', () => {
  it.each(['xml-crypto', '@node-saml/node-saml', 'samlify'])('is in the xpath that %s loads', (owner) => {
    const source = readFileSync(xpathOf(owner), 'utf8');
    expect(source).toContain(XPATH_PATCH_MARK);
    expect(source).not.toContain('for (var nextKey in nextSource)');
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('replaces exactly the assign helper (%s) and is idempotent', (_, eol) => {
    const before = ['(function () {', ...ORIGINAL, '    var x = assign({}, {a: 1});', '})();'].join(eol);
    const once = patchXpath(before) as string;
    expect(once).toContain(XPATH_PATCH_MARK);
    expect(once).toContain(`${eol}    var x = assign({}, {a: 1});${eol}})();`);
    expect(once.startsWith(`(function () {${eol}    function assign(target, varArgs) {`)).toBe(true);
    expect(once).not.toContain('nextKey');
    expect(patchXpath(once)).toBe(once);
  });

  it('leaves an unknown text alone', () => {
    expect(patchXpath('function assign(a, b) { return a; }')).toBeNull();
  });

  it('answers the selects of a signature check with the elements they name', () => {
    const xpath = createRequire(require.resolve('xml-crypto/package.json'))('xpath') as {
      select(
        expression: string,
        node: unknown,
      ): Array<{ localName: string; getAttribute(n: string): string }>;
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
});
