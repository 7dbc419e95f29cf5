import { AxiosError, CanceledError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, csrfResponse } from '@pra/contracts';
import { ApiError, call, http, textBody, UNKNOWN_ERROR } from './client';
import { setCsrfToken } from './csrf-token';

type Reply = { status: number; data: unknown } | { cancel: true } | { network: true };
type Seen = {
  method: string;
  url: string;
  headers: Record<string, unknown>;
  data: unknown;
  withCredentials?: boolean;
};

let replies: Map<string, Reply>;
let seen: Seen[];

// A fake transport: answers by URL and records what the client sent.
function fakeAdapter(config: InternalAxiosRequestConfig): Promise<AxiosResponse> {
  const url = http.getUri(config);
  seen.push({
    method: (config.method ?? 'get').toUpperCase(),
    url,
    headers: config.headers.toJSON(),
    data: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
    withCredentials: config.withCredentials,
  });
  const reply = replies.get(url) ?? { status: 200, data: {} };
  if ('cancel' in reply) return Promise.reject(new CanceledError(undefined, undefined, config));
  if ('network' in reply) return Promise.reject(new AxiosError('Network Error', 'ERR_NETWORK', config));
  const response: AxiosResponse = { ...reply, statusText: '', headers: {}, config };
  if (reply.status >= 400) {
    const code = reply.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST';
    return Promise.reject(
      new AxiosError(`Request failed with status code ${reply.status}`, code, config, null, response),
    );
  }
  return Promise.resolve(response);
}

const logCalls = () => seen.filter((s) => s.url === api.clientLog);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  replies = new Map();
  seen = [];
  http.defaults.adapter = fakeAdapter;
  setCsrfToken('token-123');
});
afterEach(() => setCsrfToken(undefined));

describe('api client', () => {
  it('sends cookies and the API-call header on every call, and no timeout', async () => {
    replies.set(api.csrf, { status: 200, data: { csrfToken: 'x' } });
    await call(csrfResponse, { method: 'get', url: api.csrf });
    expect(seen[0]?.headers['x-pra-api-call']).toBe('true');
    expect(seen[0]?.withCredentials).toBe(true);
    expect(http.defaults.timeout ?? 0).toBe(0);
  });

  it('sends the CSRF token on POSTs only', async () => {
    await call({ parse: (d) => d }, { method: 'get', url: '/api/a' });
    await call({ parse: (d) => d }, { method: 'post', url: '/api/b' });
    expect(seen[0]?.headers['x-csrf-token']).toBeUndefined();
    expect(seen[1]?.headers['x-csrf-token']).toBe('token-123');
    expect(seen[1]?.headers['x-pra-api-call']).toBe('true');
  });

  it("turns the server's errors envelope into the thrown message and logs the failure", async () => {
    replies.set('/api/user', { status: 403, data: { errors: ['Not allowed here'] } });
    const error = await call(textBody, { method: 'get', url: '/api/user' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Not allowed here');
    expect((error as ApiError).status).toBe(403);
    await flush();
    const [log] = logCalls();
    expect(log?.method).toBe('POST');
    expect(log?.headers['x-csrf-token']).toBe('token-123');
    const message = (log?.data as { errorMessage: string }).errorMessage;
    expect(message).toContain('Not allowed here');
    expect(message).toContain('GET /api/user');
  });

  it('uses the default message when the failure carries none', async () => {
    replies.set('/api/x', { network: true });
    await expect(call(textBody, { method: 'post', url: '/api/x' })).rejects.toThrow(UNKNOWN_ERROR);
    await flush();
    expect((logCalls()[0]?.data as { errorMessage: string }).errorMessage).toContain('POST /api/x');
  });

  it('counts a successful body with errors or warnings as a failure', async () => {
    replies.set('/api/w', { status: 200, data: { warnings: ['Careful now'] } });
    await expect(call({ parse: (d) => d }, { method: 'get', url: '/api/w' })).rejects.toThrow('Careful now');
    await flush();
    expect(logCalls()).toHaveLength(1);
  });

  it('ignores an empty errors list', async () => {
    replies.set('/api/e', { status: 200, data: { errors: [], successes: ['a'] } });
    await expect(call({ parse: (d) => d }, { method: 'get', url: '/api/e' })).resolves.toEqual({
      errors: [],
      successes: ['a'],
    });
  });

  it('fails with the default message when the body does not match the contract', async () => {
    replies.set(api.csrf, { status: 200, data: { wrong: true } });
    await expect(call(csrfResponse, { method: 'get', url: api.csrf })).rejects.toThrow(UNKNOWN_ERROR);
    await flush();
    expect(logCalls()).toHaveLength(1);
  });

  it('neither logs nor rewraps cancelled requests', async () => {
    replies.set('/api/slow', { cancel: true });
    const error = await call(textBody, { method: 'get', url: '/api/slow' }).catch((e: unknown) => e);
    expect((error as AxiosError).code).toBe('ERR_CANCELED');
    await flush();
    expect(logCalls()).toHaveLength(0);
  });

  it('never logs a failure of the client-log call itself', async () => {
    replies.set(api.clientLog, { status: 500, data: {} });
    await expect(call(textBody, { method: 'post', url: api.clientLog })).rejects.toThrow(UNKNOWN_ERROR);
    await flush();
    expect(logCalls()).toHaveLength(1);
  });

  it('includes the query string in the logged URL', async () => {
    replies.set('/api/q?getCountOnly=true', { status: 500, data: { errors: ['Boom'] } });
    await expect(
      call(textBody, { method: 'get', url: '/api/q', params: { getCountOnly: 'true' } }),
    ).rejects.toThrow('Boom');
    await flush();
    expect((logCalls()[0]?.data as { errorMessage: string }).errorMessage).toContain(
      'GET /api/q?getCountOnly=true',
    );
  });
});
