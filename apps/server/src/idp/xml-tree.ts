/**
 * The built-in IdP's XML, built as a tree and written once as the document (xml-signature.ts signs
 * it first, from the tree's exclusive canonical form). Only what the IdP's documents use is
 * supported: prefixed element names, namespace declarations on elements, unprefixed or prefixed
 * attributes, and text.
 *
 * Every text and attribute value is escaped as canonical XML writes it (tab, line feed and
 * carriage return in attributes and carriage return in text as character references), so that
 * a parser reading the document gets back exactly the tree's values, whatever a name holds.
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

const prefixOf = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? '' : name.slice(0, colon);
};
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The element's exclusive canonical form (Exclusive XML Canonicalization 1.0, without comments and
 * without an InclusiveNamespaces prefix list): the text a verifier canonicalizes out of
 * `serialize`'s document for this element, computed from the tree instead of a parse. `inScope`
 * holds the namespaces its ancestors declare; `rendered`, those the output already declared.
 *
 * Per the recommendation: each namespace is declared on the first output element that visibly
 * uses it (its own prefix or an attribute's), sorted by prefix; attributes are sorted by
 * namespace URI (none first), then local name; elements are written as start and end tags; text
 * and attribute values are escaped as `serialize` escapes them. Names must be prefixed and
 * prefixes declared (the IdP's documents are), or it throws rather than guess.
 */
export function canonicalize(
  node: XmlElement,
  inScope: Readonly<Record<string, string>> = {},
  rendered: Readonly<Record<string, string>> = {},
): string {
  const scope = node.namespaces ? { ...inScope, ...node.namespaces } : inScope;
  const uriOf = (prefix: string) => {
    const uri = prefix === '' ? undefined : scope[prefix];
    if (uri === undefined) throw new Error(`canonicalize: "${prefix}" is not a declared prefix`);
    return uri;
  };
  const attributes = (node.attributes ?? []).map(([name, value]) => {
    const prefix = prefixOf(name);
    return {
      prefix,
      uri: prefix ? uriOf(prefix) : '',
      local: prefix ? name.slice(prefix.length + 1) : name,
      name,
      value,
    };
  });
  const used = new Set([prefixOf(node.name), ...attributes.filter((a) => a.prefix).map((a) => a.prefix)]);
  let declarations = '';
  let output = rendered;
  for (const prefix of [...used].sort(byCodePoint)) {
    const uri = uriOf(prefix);
    if (output[prefix] === uri) continue;
    declarations += ` xmlns:${prefix}="${escapeAttribute(uri)}"`;
    output = { ...output, [prefix]: uri };
  }
  const written = attributes
    .sort((a, b) => byCodePoint(a.uri, b.uri) || byCodePoint(a.local, b.local))
    .map((a) => ` ${a.name}="${escapeAttribute(a.value)}"`)
    .join('');
  const children = (node.children ?? [])
    .map((child) => (typeof child === 'string' ? escapeText(child) : canonicalize(child, scope, output)))
    .join('');
  return `<${node.name}${declarations}${written}>${children}</${node.name}>`;
}
