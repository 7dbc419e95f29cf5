import { routes } from '@pra/contracts';

/** A path a browser reads as this origin's: one leading slash, no backslash or control character. */
function isLocalPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  // Control characters are exactly what this check looks for.
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f\\]/.test(path);
}

/**
 * Where to go after sign-in: only a path on this origin. Anything that a browser could read as
 * another host (`//evil`, `/\evil`, `https:`, control characters) becomes /welcome. The check
 * holds for the normalised path that is sent on, too: `/.//evil` normalises to `//evil`.
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return routes.welcome;
  if (!isLocalPath(next)) return routes.welcome;
  try {
    const url = new URL(next, 'http://portal.invalid');
    if (url.origin !== 'http://portal.invalid') return routes.welcome;
    const normalised = `${url.pathname}${url.search}${url.hash}`;
    return isLocalPath(normalised) ? normalised : routes.welcome;
  } catch {
    return routes.welcome;
  }
}
