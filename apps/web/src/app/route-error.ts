import { isRouteErrorResponse } from 'react-router';
import { UNKNOWN_ERROR } from '../api/client';

/** The status and status text of a routing error, or the message of anything else thrown. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error && error.message) return error.message;
  return UNKNOWN_ERROR;
}
