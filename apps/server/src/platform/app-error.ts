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
  tooMany: 'Too many attempts. Please wait and try again later.',
  invalidText: 'The request contains characters that are not allowed.',
} as const;
