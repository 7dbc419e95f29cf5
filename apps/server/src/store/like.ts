// LIKE patterns from typed text: lower-cased (the owners compare lower(column)), with LIKE's
// wildcards and its escape character taken literally.

const escaped = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** Matches text that contains `needle`. */
export function containsPattern(needle: string): string {
  return `%${escaped(needle)}%`;
}

/** Matches text that starts with `prefix`. */
export function prefixPattern(prefix: string): string {
  return `${escaped(prefix)}%`;
}
