import { api, type AuthStatusResponse, type CurrentUser } from '@pra/contracts';
import { transport } from '../api/client';
import { filterRows, pageCount, sortRows } from '../components/data-table/table-logic';

/** A reply by `METHOD /path?query`; a status of 400 or more is a failed call. */
export interface FakeReply {
  status?: number;
  data: unknown;
  /** The reply waits for this, to look at the page while a call is under way. */
  until?: Promise<unknown>;
}

/** A reply computed from the query string (a paged list), by `METHOD /path`. */
export type FakeRoute = (query: URLSearchParams) => FakeReply;

export interface FakeServer {
  replies: Map<string, FakeReply>;
  routes: Map<string, FakeRoute>;
  /** Each call as sent; `signal` is the call's AbortSignal, to see whether it was withdrawn. */
  requests: { key: string; data: unknown; signal?: AbortSignal | null | undefined }[];
}

/** Routes the API client's fetch to canned replies; unknown calls answer 404. */
export function installFakeServer(
  replies: Record<string, FakeReply> = {},
  routes: Record<string, FakeRoute> = {},
): FakeServer {
  const server: FakeServer = {
    replies: new Map(Object.entries(replies)),
    routes: new Map(Object.entries(routes)),
    requests: [],
  };
  transport.fetch = async (url, init) => {
    const key = `${init.method ?? 'GET'} ${url}`;
    server.requests.push({
      key,
      data: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      signal: init.signal,
    });
    const [path = '', search = ''] = String(url).split('?');
    const route = server.routes.get(`${init.method ?? 'GET'} ${path}`);
    const reply = server.replies.get(key) ??
      route?.(new URLSearchParams(search)) ?? { status: 404, data: { errors: ['Not found'] } };
    await reply.until;
    const isText = typeof reply.data === 'string';
    return new Response(isText ? (reply.data as string) : JSON.stringify(reply.data), {
      status: reply.status ?? 200,
      headers: { 'content-type': isText ? 'text/plain' : 'application/json' },
    });
  };
  return server;
}

export const anonymous: AuthStatusResponse = { isAuthenticated: false };

export function signedIn(secondsLeft = 1800, extensions = 3): AuthStatusResponse {
  return {
    isAuthenticated: true,
    expires: new Date(Date.now() + secondsLeft * 1000).toISOString(),
    remainingSessionExtentions: extensions,
  };
}

export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u1',
    username: 'alovelace',
    givenName: 'Ada',
    familyName: 'Lovelace',
    jobTitle: 'Engineer',
    isActive: true,
    email: 'ada@acme.example',
    manager: '',
    orgs: ['Acme Imaging'],
    isEmployeeBrm: false,
    isAdmin: false,
    loginUrl: api.login,
    type: 'vendor',
    iiqAvailable: true,
    ...overrides,
  };
}

/** The boot calls every page needs, for the given session and user. */
export function bootReplies(auth: AuthStatusResponse, user?: CurrentUser): Record<string, FakeReply> {
  return {
    [`GET ${api.csrf}`]: { data: { csrfToken: 'csrf-1' } },
    [`GET ${api.isAuthenticated}`]: { data: auth },
    [`GET ${api.systemMessage}`]: {
      data: { enabled: false, loggedInOnly: false, severity: 'info', title: '', text: '' },
    },
    ...(user ? { [`GET ${api.user}`]: { data: user } } : {}),
    [`POST ${api.clientLog}`]: { data: {} },
  };
}

/**
 * A paged list as the server answers it (contracts' pageQuery and pageOf): the rows filtered by
 * `texts`, sorted by the named column's value, one page of them, the last when asked past it.
 */
export function pagedList<T>(
  rows: readonly T[],
  texts: (row: T) => string[],
  sortValues: Record<string, (row: T) => string | number>,
  until?: Promise<unknown>,
): FakeRoute {
  return (query) => {
    const size = Number(query.get('size') ?? 10);
    const matching = filterRows(rows, query.get('filter') ?? '', texts);
    const sortValue = sortValues[query.get('sort') ?? ''];
    const direction = query.get('direction') === 'desc' ? 'desc' : 'asc';
    const sorted = sortValue ? sortRows(matching, direction, sortValue) : matching;
    const page = Math.min(Number(query.get('page') ?? 1), pageCount(sorted.length, size));
    const items = sorted.slice((page - 1) * size, page * size);
    return { data: { items, total: rows.length, matching: sorted.length, page, size }, until };
  };
}
