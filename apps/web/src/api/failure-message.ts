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
