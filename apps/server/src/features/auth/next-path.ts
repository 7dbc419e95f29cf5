import { routes } from '@pra/contracts';

/**
 * Where to go after sign-in: only a path on this origin. Anything that a browser could read as
 * another host (`//evil`, `/\evil`, `https:`, control characters) becomes /welcome.
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return routes.welcome;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return routes.welcome;
  // Control characters are exactly what this check looks for.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return routes.welcome;
  try {
    const url = new URL(next, 'http://portal.invalid');
    if (url.origin !== 'http://portal.invalid') return routes.welcome;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return routes.welcome;
  }
}
