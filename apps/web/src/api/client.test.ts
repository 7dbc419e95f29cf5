import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, csrfResponse } from '@pra/contracts';
import { ApiError, call, callEndpoint, isCancelled, textBody, transport, UNKNOWN_ERROR } from './client';
import { setCsrfToken } from './csrf-token';

type Reply = { status: number; data: unknown; contentType?: string } | { cancel: true } | { network: true };
type Seen = {
  method: string;
  url: string;
  headers: Record<string, string>;
  data: unknown;
  credentials: RequestCredentials | undefined;
  signal: AbortSignal | null | undefined;
};

let replies: Map<string, Reply>;
let seen: Seen[];
const realFetch = transport.fetch;

// A fake transport: answers by URL and records what the client sent.
function fakeFetch(url: string, init: RequestInit): Promise<Response> {
  seen.push({
    method: init.method ?? 'GET',
    url,
    headers: { ...(init.headers as Record<string, string>) },
    data: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    credentials: init.credentials,
    signal: init.signal,
  });
  const reply = replies.get(url) ?? { status: 200, data: {} };
  if ('cancel' in reply) return Promise.reject(new DOMException('This operation was aborted', 'AbortError'));
  if ('network' in reply) return Promise.reject(new TypeError('Failed to fetch'));
  const contentType = reply.contentType ?? 'application/json; charset=utf-8';
  const body = typeof reply.data === 'string' ? reply.data : JSON.stringify(reply.data);
  return Promise.resolve(
    new Response(body, { status: reply.status, headers: { 'content-type': contentType } }),
  );
}

const logCalls = () => seen.filter((s) => s.url === api.clientLog);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  replies = new Map();
  seen = [];
  transport.fetch = fakeFetch;
  setCsrfToken('token-123');
});
afterEach(() => {
  transport.fetch = realFetch;
  setCsrfToken(undefined);
});

describe('api client', () => {
  it('sends cookies and the API-call header on every call, and no timeout', async () => {
    replies.set(api.csrf, { status: 200, data: { csrfToken: 'x' } });
    await call(csrfResponse, { method: 'get', url: api.csrf });
    expect(seen[0]?.headers['x-pra-api-call']).toBe('true');
    expect(seen[0]?.credentials).toBe('include');
    // No timeout: nothing but the caller's own signal may end a call (MFA push waits are long).
    expect(seen[0]?.signal).toBeNull();
  });

  it("passes the caller's AbortSignal on", async () => {
    const controller = new AbortController();
    await call({ parse: (d) => d }, { method: 'get', url: '/api/a', signal: controller.signal });
    expect(seen[0]?.signal).toBe(controller.signal);
  });

  it('sends POST data as JSON', async () => {
    await call({ parse: (d) => d }, { method: 'post', url: '/api/b', data: { email: 'a@b.example' } });
    expect(seen[0]?.data).toEqual({ email: 'a@b.example' });
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('returns text bodies as text', async () => {
    replies.set(api.serviceCheck, { status: 200, data: 'database: ok', contentType: 'text/plain' });
    await expect(call(textBody, { method: 'get', url: api.serviceCheck })).resolves.toBe('database: ok');
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
    expect(message).toContain('Request failed with status code 403');
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
    expect(isCancelled(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
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

describe('callEndpoint', () => {
  it('fills in path parameters (encoded), sends the body with the CSRF token and parses the answer', async () => {
    const { addDomain } = await import('@pra/contracts/endpoints/administration');
    replies.set('/api/admin/organizations/o%2F1/domains', { status: 200, data: { success: true } });
    const result = await callEndpoint(addDomain, { params: { id: 'o/1' }, body: { domain: 'acme.example' } });
    expect(result).toEqual({ success: true });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/admin/organizations/o%2F1/domains',
      data: { domain: 'acme.example' },
      headers: { 'x-csrf-token': 'token-123', 'x-pra-api-call': 'true', 'content-type': 'application/json' },
    });
  });

  it('sends the query parameters that are set, and a GET without the CSRF token', async () => {
    const { getAvailableRoles } = await import('@pra/contracts/endpoints/access');
    replies.set('/api/vendor/roles?username=ann', { status: 200, data: [] });
    await callEndpoint(getAvailableRoles, { query: { username: 'ann', showAll: undefined } });
    expect(seen[0]?.url).toBe('/api/vendor/roles?username=ann');
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.headers['x-csrf-token']).toBeUndefined();
  });

  it('refuses an answer its schema refuses, logging the failure with the call', async () => {
    const { getManagedUsers } = await import('@pra/contracts/endpoints/manage-users');
    replies.set(api.managedUsers, { status: 200, data: { not: 'a list' } });
    await expect(callEndpoint(getManagedUsers)).rejects.toMatchObject({ message: UNKNOWN_ERROR });
    await flush();
    expect((logCalls()[0]?.data as { errorMessage: string }).errorMessage).toContain('GET /api/brm/users');
  });

  it('hands back a partial result where the endpoint says answers may carry failures', async () => {
    const { requestAccess } = await import('@pra/contracts/endpoints/access');
    const data = { errors: ['Role B failed'], successes: ['Role A'] };
    replies.set(api.requestAccess, { status: 200, data });
    const body = { selectedNames: ['A', 'B'], justification: 'j', beneficiaryUsername: 'ann' };
    await expect(callEndpoint(requestAccess, { body })).resolves.toEqual(data);
  });

  it('reads a text answer as text, and neither logs nor reports a cancelled call', async () => {
    const { getServiceCheck } = await import('@pra/contracts/endpoints/system');
    replies.set(api.serviceCheck, { status: 200, data: 'all good', contentType: 'text/plain' });
    await expect(callEndpoint(getServiceCheck)).resolves.toBe('all good');
    replies.set(api.serviceCheck, { cancel: true });
    await expect(callEndpoint(getServiceCheck)).rejects.toSatisfy(isCancelled);
    await flush();
    expect(logCalls()).toEqual([]);
  });
});

describe('the calls kept apart from callEndpoint (no schema library on the first page)', () => {
  it('call the method and path of their contract endpoints', async () => {
    const session = await import('@pra/contracts/endpoints/session');
    const system = await import('@pra/contracts/endpoints/system');
    const { getAuthStatus, loadCsrfToken } = await import('./session');
    const { getSystemMessage } = await import('./system');
    const { getCurrentUser } = await import('./user');
    const made: Array<[() => Promise<unknown>, { method: string; path: string }]> = [
      [() => loadCsrfToken(), session.getCsrfToken],
      [() => getAuthStatus(), session.getAuthStatus],
      [() => getCurrentUser(), session.getCurrentUser],
      [() => getSystemMessage(), system.getSystemMessage],
    ];
    for (const [run, endpoint] of made) {
      seen = [];
      await run().catch(() => undefined); // the fake answer may not parse: only the request matters
      expect(`${seen[0]?.method} ${seen[0]?.url}`).toBe(`${endpoint.method} ${endpoint.path}`);
    }
  });
});
