/**
 * The built-in IdP's XML, built as a tree and written once as the document (xml-signature.ts then
 * signs it). Only what the IdP's documents use is supported: prefixed element names, namespace
 * declarations on elements, unprefixed or prefixed attributes, and text.
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
