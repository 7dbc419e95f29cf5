import { ApiError, UNKNOWN_ERROR } from './client';

/**
 * What to show for a failed call: the server's own words for a refused request (e.g. its password
 * rules, "too many attempts"), `fallback` for anything else (network, 5xx, bad reply).
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (
    error instanceof ApiError &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500 &&
    error.message !== UNKNOWN_ERROR
  ) {
    return error.message;
  }
  return fallback;
}

/**
 * A server validation message names the field by its internal path (`domains.0: …`, spec of the
 * API, not of the screen). Splits it into that field's top-level name and the words for a person;
 * a message without such a path keeps `field` undefined.
 */
export function splitFieldPath(message: string): { field: string | undefined; text: string } {
  const match = /^([a-zA-Z][\w]*)((?:\.[\w]+)*): (.+)$/s.exec(message);
  if (!match?.[1] || !match[3] || (!match[2] && !/^[a-z]/.test(match[1]))) {
    return { field: undefined, text: message };
  }
  return { field: match[1], text: match[3] };
}
