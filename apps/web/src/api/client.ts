import { api } from '@pra/contracts/paths';
import { CLIENT_LOG_MAX_CHARS } from '@pra/contracts/limits';
import type { ClientLogBody } from '@pra/contracts';
import {
  isMediaAnswer,
  pathWith,
  queryParams,
  type BodyInput,
  type Endpoint,
  type ParamsInput,
  type QueryInput,
  type ResultOf,
} from '@pra/contracts/endpoint';
import { getCsrfToken } from './csrf-token';

/** Shown when a call fails without a message of its own. */
export const UNKNOWN_ERROR = 'An unknown error occurred';

/** Anything with zod's `parse`: the contracts' schemas, or a small hand-made parser. */
export interface ResponseParser<T> {
  parse(data: unknown): T;
}

/** One call: the path, its query parameters, and a JSON body for the state-changing methods. */
export interface CallConfig {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  url: string;
  params?: Record<string, string | undefined>;
  data?: unknown;
  signal?: AbortSignal | undefined;
  /** Extra request headers (e.g. the current password of GET /api/user/auth; never logged). */
  headers?: Record<string, string>;
  /**
   * The answer may report partial success (`errors` beside `successes`): a 2xx body is then
   * parsed and handed back, not turned into a failure.
   */
  partialResults?: boolean;
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
 * The browser's fetch, behind an object so tests can put a fake server in its place. fetch has no
 * timeout of its own, which long MFA push waits depend on.
 */
export const transport: { fetch: (url: string, init: RequestInit) => Promise<Response> } = {
  fetch: (url, init) => fetch(url, init),
};

const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

/** The path with its query string, as sent and as logged. */
function requestUrl(config: CallConfig): string {
  const given = Object.entries(config.params ?? {}).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  const query = new URLSearchParams(given).toString();
  return query ? `${config.url}?${query}` : config.url;
}

/** True for a request aborted through its AbortSignal: such failures are neither logged nor shown. */
export function isCancelled(error: unknown): boolean {
  // fetch rejects with a DOMException, which is not an Error subclass in every environment.
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
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

/**
 * Sends one request: cookies, the API-call marker header, the CSRF token on state-changing calls,
 * a JSON body. Resolves with the status and the body (JSON when the server says so, else text);
 * a status of 400 or more becomes an ApiError carrying the body's messages.
 */
async function send(config: CallConfig): Promise<{ status: number; data: unknown }> {
  const headers: Record<string, string> = { ...config.headers, 'x-pra-api-call': 'true' };
  const token = getCsrfToken();
  if (token && STATE_CHANGING.has(config.method)) headers['x-csrf-token'] = token;
  if (config.data !== undefined) headers['content-type'] = 'application/json';
  const response = await transport.fetch(requestUrl(config), {
    method: config.method.toUpperCase(),
    credentials: 'include',
    headers,
    body: config.data === undefined ? null : JSON.stringify(config.data),
    signal: config.signal ?? null,
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  let data: unknown = text;
  if (isJson && text) {
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ApiError(UNKNOWN_ERROR, response.status, { cause: error });
    }
  }
  if (response.status >= 400) {
    const cause = new Error(`Request failed with status code ${response.status}`);
    throw new ApiError(failureMessages(data)?.join(' ') ?? UNKNOWN_ERROR, response.status, { cause });
  }
  return { status: response.status, data };
}

/** POST /api/client-log. Fire and forget: its own failure is deliberately neither caught nor logged. */
function postClientLog(body: ClientLogBody): Promise<unknown> {
  return send({ method: 'post', url: api.clientLog, data: body });
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(UNKNOWN_ERROR, undefined, { cause: error });
}

function logFailure(apiError: ApiError, config: CallConfig): void {
  const cause = apiError.cause instanceof Error ? apiError.cause.message : undefined;
  const detail = cause && cause !== apiError.message ? ` (${cause})` : '';
  const errorMessage = `${apiError.message}${detail} [${config.method.toUpperCase()} ${requestUrl(config)}]`;
  postClientLog({ errorMessage: errorMessage.slice(0, CLIENT_LOG_MAX_CHARS) }).catch(() => undefined);
}

/** Turns any failure into what callers see, logging it first unless cancelled or itself the log call. */
function fail(error: unknown, config: CallConfig): unknown {
  if (isCancelled(error)) return error;
  const apiError = toApiError(error);
  if (config.url !== api.clientLog) logFailure(apiError, config);
  return apiError;
}

/** Makes one call and parses its body; every endpoint function goes through here. */
export async function call<T>(parser: ResponseParser<T>, config: CallConfig): Promise<T> {
  let data: unknown;
  let status: number | undefined;
  try {
    ({ data, status } = await send(config));
  } catch (error) {
    throw fail(error, config);
  }
  const messages = config.partialResults ? undefined : failureMessages(data);
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

/** A call's parts, each present exactly when its endpoint has it. */
export type EndpointCall<E extends Endpoint> = (E['params'] extends object
  ? { params: ParamsInput<E> }
  : { params?: never }) &
  (E['body'] extends object ? { body: BodyInput<E> } : { body?: never }) &
  (E['query'] extends object ? { query?: QueryInput<E> } : { query?: never }) & {
    /** Extra request headers (e.g. the current password of GET /api/user/auth; never logged). */
    headers?: Record<string, string>;
    signal?: AbortSignal | undefined;
  };

/** The parser of an endpoint's success answer: its schema, or the text of a non-JSON answer. */
function successParser<E extends Endpoint>(endpoint: E): ResponseParser<ResultOf<E>> {
  const answer = endpoint.response[200] ?? endpoint.response[204];
  if (!answer || isMediaAnswer(answer)) return textBody as ResponseParser<ResultOf<E>>;
  return answer as ResponseParser<ResultOf<E>>;
}

/**
 * Calls any contract endpoint: its method and path (parameters filled in), query, JSON body and
 * headers, parsed with its success schema (or `parser`: a narrower schema, or a hand-written check
 * that keeps the schema library off the first page). Everything `call` does holds: the CSRF token,
 * `x-pra-api-call`, client-log of failures, no log or message for a cancelled call.
 */
export function callEndpoint<E extends Endpoint, T = ResultOf<E>>(
  endpoint: E,
  ...[parts, parser]: E['params'] extends object
    ? [parts: EndpointCall<E>, parser?: ResponseParser<T>]
    : E['body'] extends object
      ? [parts: EndpointCall<E>, parser?: ResponseParser<T>]
      : [parts?: EndpointCall<E>, parser?: ResponseParser<T>]
): Promise<T> {
  const given = (parts ?? {}) as {
    params?: object;
    body?: unknown;
    query?: object;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };
  return call((parser ?? successParser(endpoint)) as ResponseParser<T>, {
    method: endpoint.method.toLowerCase() as CallConfig['method'],
    url: pathWith(endpoint.path, given.params as Record<string, string> | undefined),
    params: queryParams(given.query),
    ...(given.body === undefined ? {} : { data: given.body }),
    ...(given.headers ? { headers: given.headers } : {}),
    ...(endpoint.partialResults ? { partialResults: true } : {}),
    signal: given.signal,
  });
}
