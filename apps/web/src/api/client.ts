import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { api, CLIENT_LOG_MAX_CHARS, type ClientLogBody } from '@pra/contracts';
import { getCsrfToken } from './csrf-token';

/** Shown when a call fails without a message of its own. */
export const UNKNOWN_ERROR = 'An unknown error occurred';

/** Anything with zod's `parse`: the contracts' schemas, or a small hand-made parser. */
export interface ResponseParser<T> {
  parse(data: unknown): T;
}

/** A failed call: `message` is ready to show to the user. */
export class ApiError extends Error {
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
  }
}

/**
 * The one axios instance: cookies on every call, the API-call marker header, no timeout
 * (axios' default of 0 means none; long MFA push waits depend on it).
 */
export const http = axios.create({
  withCredentials: true,
  headers: { 'x-pra-api-call': 'true' },
});

const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

http.interceptors.request.use((config) => {
  const token = getCsrfToken();
  if (token && STATE_CHANGING.has((config.method ?? 'get').toLowerCase())) {
    config.headers.set('x-csrf-token', token);
  }
  return config;
});

/** True for a request aborted through its AbortSignal: such failures are neither logged nor shown. */
export function isCancelled(error: unknown): boolean {
  return axios.isCancel(error) || (error instanceof AxiosError && error.code === AxiosError.ERR_CANCELED);
}

/** The spec counts a body with an errors or warnings member as a failure; returns its messages. */
function failureMessages(data: unknown): string[] | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const { errors, warnings } = data as Record<string, unknown>;
  const messages = [errors, warnings].flatMap(toMessages);
  const hasMember = [errors, warnings].some((member) => member !== undefined && member !== null);
  // An empty list (e.g. `errors: []` next to successes) is not a failure.
  return hasMember && messages.length > 0 ? messages : undefined;
}

function toMessages(member: unknown): string[] {
  if (typeof member === 'string') return member ? [member] : [];
  if (Array.isArray(member)) return member.map((item) => (typeof item === 'string' ? item : UNKNOWN_ERROR));
  return [];
}

/** POST /api/client-log. Fire and forget: its own failure is deliberately neither caught nor logged. */
function postClientLog(body: ClientLogBody): Promise<unknown> {
  return http.post(api.clientLog, body);
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof AxiosError) {
    const messages = failureMessages(error.response?.data);
    return new ApiError(messages?.join(' ') ?? UNKNOWN_ERROR, error.response?.status, { cause: error });
  }
  return new ApiError(UNKNOWN_ERROR, undefined, { cause: error });
}

function describeRequest(config: AxiosRequestConfig): string {
  const method = (config.method ?? 'get').toUpperCase();
  return `${method} ${http.getUri(config)}`;
}

function logFailure(apiError: ApiError, config: AxiosRequestConfig): void {
  const cause = apiError.cause instanceof Error ? apiError.cause.message : undefined;
  const detail = cause && cause !== apiError.message ? ` (${cause})` : '';
  const errorMessage = `${apiError.message}${detail} [${describeRequest(config)}]`;
  void postClientLog({ errorMessage: errorMessage.slice(0, CLIENT_LOG_MAX_CHARS) });
}

/** Turns any failure into what callers see, logging it first unless cancelled or itself the log call. */
function fail(error: unknown, config: AxiosRequestConfig): unknown {
  if (isCancelled(error)) return error;
  const apiError = toApiError(error);
  if (config.url !== api.clientLog) logFailure(apiError, config);
  return apiError;
}

/** Makes one call and parses its body; every endpoint function goes through here. */
export async function call<T>(parser: ResponseParser<T>, config: AxiosRequestConfig): Promise<T> {
  let data: unknown;
  let status: number | undefined;
  try {
    ({ data, status } = await http.request(config));
  } catch (error) {
    throw fail(error, config);
  }
  const messages = failureMessages(data);
  if (messages) throw fail(new ApiError(messages.join(' '), status), config);
  try {
    return parser.parse(data);
  } catch (error) {
    throw fail(new ApiError(UNKNOWN_ERROR, status, { cause: error }), config);
  }
}

/** Parser for text/plain bodies. */
export const textBody: ResponseParser<string> = {
  parse(data) {
    if (typeof data !== 'string') throw new TypeError('Expected a text body');
    return data;
  },
};
