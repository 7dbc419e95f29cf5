import { api, type AuthStatusResponse, type CurrentUser } from '@pra/contracts';
import { transport } from '../api/client';

/** A reply by `METHOD /path?query`; a status of 400 or more is a failed call. */
export interface FakeReply {
  status?: number;
  data: unknown;
  /** The reply waits for this, to look at the page while a call is under way. */
  until?: Promise<unknown>;
}

export interface FakeServer {
  replies: Map<string, FakeReply>;
  /** Each call as sent; `signal` is the call's AbortSignal, to see whether it was withdrawn. */
  requests: { key: string; data: unknown; signal?: AbortSignal | null | undefined }[];
}

/** Routes the API client's fetch to canned replies; unknown calls answer 404. */
export function installFakeServer(replies: Record<string, FakeReply> = {}): FakeServer {
  const server: FakeServer = { replies: new Map(Object.entries(replies)), requests: [] };
  transport.fetch = async (url, init) => {
    const key = `${init.method ?? 'GET'} ${url}`;
    server.requests.push({
      key,
      data: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      signal: init.signal,
    });
    const reply = server.replies.get(key) ?? { status: 404, data: { errors: ['Not found'] } };
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
