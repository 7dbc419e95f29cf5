/** Stable error codes and the HTTP status each maps to. */
const statusOf = {
  badRequest: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  tooManyRequests: 429,
  serviceUnavailable: 503,
} as const;
export type ErrorCode = keyof typeof statusOf;

/** An expected failure: its message is meant for the person and is sent as is. */
export class AppError extends Error {
  /** Every message, when there is more than one (e.g. each password rule a password fails). */
  list: string[] | undefined;

  /** One failure described by several messages, all sent in the envelope. */
  static many(code: ErrorCode, list: string[]): AppError {
    const error = new AppError(code, list.join(' '));
    error.list = list;
    return error;
  }

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
  get status(): number {
    return statusOf[this.code];
  }
}

export const messages = {
  unexpected: 'An unexpected error occurred. Please try again later.',
  unavailable: 'The service is temporarily unavailable. Please try again shortly.',
  notFound: 'Not found',
  methodNotAllowed: 'This address does not accept this method.',
  signInRequired: 'You must be signed in to do this.',
  forbidden: 'You are not allowed to do this.',
  csrf: 'Your session is out of date. Reload the page and try again.',
  tooLarge: 'The request is too large.',
  mediaType: 'The request must be sent as application/json.',
  badJson: 'The request body is not valid JSON.',
  badRequest: 'Bad request',
  invalidText: 'The request contains characters that are not allowed.',
  concurrentChange: 'Someone else changed this at the same moment. Please try again.',
} as const;

/** How long to wait, as a person reads it: "45 seconds", "1 minute", "15 minutes" (rounded up). */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${Math.max(1, Math.ceil(seconds))} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * The one 429: says when to try again, in the message and as Retry-After (seconds). `reason`
 * is what was too many (a sentence); the wait is added after it.
 */
export function tooManyRequests(retryAfterSeconds: number, reason = 'Too many attempts.'): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError('tooManyRequests', `${reason} Please try again in ${waitText(seconds)}.`, seconds);
}
