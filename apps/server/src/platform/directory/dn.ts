/**
 * An RDN value escaped as RFC 4514 section 2.4 asks: `"`, `+`, `,`, `;`, `<`, `>` and `\` anywhere,
 * a `#` or space at the start, a space at the end, and NUL as `\00`. (ldapts's own DN builder quotes
 * values with outer spaces, the older RFC 2253 form, which RFC 4514 no longer allows.)
 */
export function escapeRdnValue(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i] as string;
    if (c === '\0') out += '\\00';
    else if ('"+,;<>\\='.includes(c)) out += `\\${c}`;
    else if ((i === 0 && (c === '#' || c === ' ')) || (i === value.length - 1 && c === ' ')) out += `\\${c}`;
    else out += c;
  }
  return out;
}

/** `attribute=value,parent` with the value escaped. */
export function childDn(attribute: string, value: string, parent: string): string {
  return `${attribute}=${escapeRdnValue(value)},${parent}`;
}

/**
 * A DN in one spelling, for comparing two that name the same entry: the directory may answer with
 * other spaces or letter case than the portal wrote (attribute types and, for the names the
 * portal writes, values compare case-insensitively).
 */
export function normalizeDn(dn: string): string {
  return dn
    .split(/(?<!\\),/)
    .map((part) => part.trim().replace(/^([^=]+?)\s*=\s*/, (_, type: string) => `${type.toLowerCase()}=`))
    .join(',')
    .toLowerCase();
}
