import { UNKNOWN_ERROR } from '../api/client';

/** Something thrown with an HTTP-like status (e.g. a failed response). */
function isStatusError(error: unknown): error is { status: number; statusText: string } {
  if (typeof error !== 'object' || error === null) return false;
  const { status, statusText } = error as Record<string, unknown>;
  return typeof status === 'number' && typeof statusText === 'string';
}

/** The status and status text of a failed response, or the message of anything else thrown. */
export function describeRouteError(error: unknown): string {
  if (isStatusError(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error && error.message) return error.message;
  return UNKNOWN_ERROR;
}
