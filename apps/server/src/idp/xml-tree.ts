import { createHash, sign, type KeyObject } from 'node:crypto';

/**
 * The built-in IdP's XML, built as a tree rather than parsed: the tree is serialized once as the
 * document and once per signature in its exclusive canonical form (Exclusive XML Canonicalization
 * 1.0, without comments), so signing needs no parser, no XPath and no DOM. Only what the IdP's
 * documents use is supported: prefixed element names, namespace declarations on elements,
 * unprefixed or prefixed attributes, and text.
 *
 * Every text and attribute value is escaped as canonical XML writes it (tab, line feed and
 * carriage return in attributes and carriage return in text as character references), so that
 * a parser reading the document gets back exactly the tree's values, and a verifier's canonical
 * form of any element is byte for byte the one computed here.
 */
export interface XmlElement {
  /** Qualified name, `prefix:local`. */
  name: string;
  /** Namespace declarations made on this element: prefix -> URI. */
  namespaces?: Record<string, string>;
  attributes?: [name: string, value: string][];
  children?: (XmlElement | string)[];
}

export const element = (
  name: string,
  attributes: XmlElement['attributes'] = [],
  children: XmlElement['children'] = [],
  namespaces?: Record<string, string>,
): XmlElement => ({ name, attributes, children, ...(namespaces ? { namespaces } : {}) });

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};
const escapeText = (text: string) => text.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!);
const escapeAttribute = (value: string) => value.replace(/[&<"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c]!);

const prefixOf = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? '' : name.slice(0, colon);
};
const localOf = (name: string) => name.slice(name.indexOf(':') + 1);

/** The document text: declarations where the tree makes them, attributes in the tree's order. */
export function serialize(node: XmlElement | string): string {
  if (typeof node === 'string') return escapeText(node);
  const declarations = Object.entries(node.namespaces ?? {})
    .map(([prefix, uri]) => ` xmlns:${prefix}="${escapeAttribute(uri)}"`)
    .join('');
  const attributes = (node.attributes ?? []).map(([n, v]) => ` ${n}="${escapeAttribute(v)}"`).join('');
  const children = (node.children ?? []).map(serialize).join('');
  return `<${node.name}${declarations}${attributes}>${children}</${node.name}>`;
}

/**
 * The exclusive canonical form of `node` as the apex of a document subset. `inScope` holds the
 * namespaces declared on its ancestors (they are in scope, but not rendered: only the apex's and
 * its descendants' visibly used prefixes are, each where it is first used on the output path).
 */
export function canonicalize(node: XmlElement, inScope: Record<string, string> = {}): string {
  return canonical(node, { ...inScope }, {});
}

function canonical(
  node: XmlElement | string,
  inScope: Record<string, string>,
  rendered: Record<string, string>,
): string {
  if (typeof node === 'string') return escapeText(node);
  const scope = { ...inScope, ...node.namespaces };
  const attributes = node.attributes ?? [];
  const used = new Set([prefixOf(node.name), ...attributes.map(([n]) => prefixOf(n)).filter(Boolean)]);
  const renderedHere = { ...rendered };
  const declarations: string[] = [];
  for (const prefix of [...used].sort()) {
    const uri = scope[prefix];
    if (uri === undefined) throw new Error(`namespace prefix ${prefix} is not declared`);
    if (renderedHere[prefix] === uri) continue;
    renderedHere[prefix] = uri;
    declarations.push(
      prefix ? ` xmlns:${prefix}="${escapeAttribute(uri)}"` : ` xmlns="${escapeAttribute(uri)}"`,
    );
  }
  // Unqualified attributes first, by local name; then qualified ones by namespace URI, local name.
  const sortKey = ([n]: [string, string]) => {
    const prefix = prefixOf(n);
    return prefix ? `1${scope[prefix] ?? ''}\u0000${localOf(n)}` : `0${n}`;
  };
  const sorted = [...attributes].sort((a, b) =>
    sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0,
  );
  const attributeText = sorted.map(([n, v]) => ` ${n}="${escapeAttribute(v)}"`).join('');
  const children = (node.children ?? []).map((child) => canonical(child, scope, renderedHere)).join('');
  return `<${node.name}${declarations.join('')}${attributeText}>${children}</${node.name}>`;
}

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/**
 * Signs `target` (an element with an `ID` attribute) with an enveloped XML signature: RSA-SHA256,
 * a SHA-256 digest of its exclusive canonical form, exclusive c14n of the SignedInfo, no KeyInfo
 * (the SP pins the certificate). The ds:Signature is inserted right after the element's first
 * child (SAML's Issuer), where the schema wants it. `inScope`: namespaces the ancestors declare.
 */
export function signEnveloped(
  target: XmlElement,
  key: KeyObject,
  inScope: Record<string, string> = {},
): void {
  const id = target.attributes?.find(([n]) => n === 'ID')?.[1];
  if (!id) throw new Error(`${target.name} has no ID to sign`);
  const digest = createHash('sha256').update(canonicalize(target, inScope)).digest('base64');
  const algorithm = (name: string, uri: string) => element(`ds:${name}`, [['Algorithm', uri]]);
  const signedInfo = element(
    'ds:SignedInfo',
    [],
    [
      algorithm('CanonicalizationMethod', EXC_C14N),
      algorithm('SignatureMethod', RSA_SHA256),
      element(
        'ds:Reference',
        [['URI', `#${id}`]],
        [
          element('ds:Transforms', [], [algorithm('Transform', ENVELOPED), algorithm('Transform', EXC_C14N)]),
          algorithm('DigestMethod', SHA256),
          element('ds:DigestValue', [], [digest]),
        ],
      ),
    ],
  );
  const signatureValue = sign('sha256', Buffer.from(canonicalize(signedInfo, { ds: DSIG })), key).toString(
    'base64',
  );
  const signature = element(
    'ds:Signature',
    [],
    [signedInfo, element('ds:SignatureValue', [], [signatureValue])],
    { ds: DSIG },
  );
  target.children = [...(target.children ?? [])];
  target.children.splice(1, 0, signature);
}
