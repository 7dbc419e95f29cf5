import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../test/support/test-app';
import { countRows } from '../../test/support/world';
import { messages } from '../platform/app-error';
import { allEndpoints } from '@pra/contracts/endpoints';
import {
  api,
  mayCall,
  routes as webRoutes,
  tokenMessages,
  tokenScopes,
  type AccountKinds,
  type Callers,
  type Endpoint,
} from '@pra/contracts';
import { createServiceToken } from '@pra/contracts/endpoints/administration';
import { servedRoutes } from './served-methods';

/** The signed-in callers of the matrix, and their account kinds. */
const signedIn = {
  vendor: { type: 'vendor', isEmployeeBrm: false, isAdmin: false },
  employee: { type: 'employee', isEmployeeBrm: false, isAdmin: false },
  brm: { type: 'employee', isEmployeeBrm: true, isAdmin: false },
  admin: { type: 'employee', isEmployeeBrm: false, isAdmin: true },
  /** Governance's reports-only auditor: neither BRM nor admin (GOVERNANCE.md §2.5, §9.2). */
  reportsAuditor: { type: 'employee', isEmployeeBrm: false, isAdmin: false, isAuditor: true },
} as const satisfies Record<string, AccountKinds>;
type Caller = keyof typeof signedIn;

/** The message each audience's guard refuses a wrongly-roled caller with. */
const refusals: Record<Exclude<Callers, 'anyone' | 'signedIn'>, string> = {
  vendor: 'Unauthorized: This feature is for vendor accounts',
  vendorOrManager: messages.forbidden,
  brmOrAdmin: 'Unauthorized: User does not have a BRM role',
  employeeBrm: 'Unauthorized: User does not have a BRM role',
  admin: 'Unauthorized: User is not an admin',
  adminOrAuditor: 'Unauthorized: User is not an admin',
};
/** The refusals the security team sees in the audit trail. */
const auditedRefusals = new Set<Callers>(['brmOrAdmin', 'admin', 'vendorOrManager', 'adminOrAuditor']);
const AUDITOR_READ_ONLY = 'Unauthorized: Auditors have read-only access';

const key = (method: string, url: string) => `${method} ${url}`;

/** A concrete path for a route pattern, with parameters no schema accepts. */
const pathOf = (url: string) => url.replace(/:[a-z]+/gi, 'x');

/** The call with a body no schema accepts (broken JSON) or none; a GET without its query. */
function call(t: TestApp, client: TestClient, method: string, url: string, body: 'empty' | 'broken') {
  return t.app.inject({
    method: method as 'GET',
    url: pathOf(url),
    headers: client.headers({ 'x-csrf-token': client.csrfToken, 'content-type': 'application/json' }),
    ...(method === 'GET' ? {} : { payload: body === 'empty' ? '{}' : '{"broken' }),
  });
}

describe.each(testDatabaseKinds)('every API route refuses before it reads, on %s', (kind) => {
  let t: TestApp;
  const clients: Record<string, TestClient> = {};
  let token = '';
  /** Every API route served, by method, with the endpoint it was registered from. */
  const routes: [string, string, Endpoint | undefined][] = [];
  const byRoute = new Map(allEndpoints.map((endpoint) => [key(endpoint.method, endpoint.path), endpoint]));

  beforeAll(async () => {
    t = await createTestApp(kind);
    await createAccount(t, { username: 'vendor' });
    await createAccount(t, { username: 'employee', type: 'employee' });
    await createAccount(t, { username: 'brm', type: 'employee', isEmployeeBrm: true });
    await createAccount(t, { username: 'admin', type: 'employee', isAdmin: true });
    // Governance's auditor: an admin and BRM by its other flags, read-only by this one.
    const auditor = await createAccount(t, {
      username: 'auditor',
      type: 'employee',
      isEmployeeBrm: true,
      isAdmin: true,
    });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', auditor).execute();
    const reportsAuditor = await createAccount(t, { username: 'reportsAuditor', type: 'employee' });
    await t.ctx.db
      .updateTable('accounts')
      .set({ is_auditor: true })
      .where('id', '=', reportsAuditor)
      .execute();
    for (const name of ['vendor', 'employee', 'brm', 'admin', 'auditor', 'reportsAuditor'])
      clients[name] = await signInAs(t, name);
    // A service token with every scope, of an admin who is also an employee BRM.
    await createAccount(t, { username: 'adminbrm', type: 'employee', isAdmin: true, isEmployeeBrm: true });
    const made = await (
      await signInAs(t, 'adminbrm')
    ).call(createServiceToken, {
      body: {
        name: 'every scope',
        scopes: tokenScopes,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    token = made.json().token;
    clients.anonymous = new TestClient(t.app);
    await clients.anonymous.fetchCsrf();
    for (const route of servedRoutes(t.app)) {
      if (!route.url.startsWith('/api/')) continue;
      for (const method of route.methods) {
        if (method === 'HEAD') continue;
        routes.push([method, route.url, byRoute.get(key(method, route.url))]);
      }
    }
  });
  afterAll(async () => t?.close());

  it('serves every API route from a contract endpoint, and every endpoint', () => {
    const served = routes.map(([method, url]) => key(method, url)).sort();
    expect(served).toEqual([...byRoute.keys()].sort());
  });

  it('lets every caller an endpoint declares past its guards', async () => {
    for (const [method, url, endpoint] of routes) {
      if (!endpoint || endpoint.callers === 'anyone') continue;
      for (const [caller, kinds] of Object.entries(signedIn)) {
        if (!mayCall(endpoint.callers, kinds)) continue;
        // The auditor's changes are refused after the role guard (their own test below).
        if (caller === 'reportsAuditor' && method !== 'GET' && endpoint.operationId !== 'extendSession')
          continue;
        // A read without its query, or a change whose body does not parse: refused after the guards.
        const res = await call(t, clients[caller]!, method, url, 'broken');
        expect([401, 403], `${caller} ${method} ${url}: ${res.body}`).not.toContain(res.statusCode);
        if (method !== 'GET') expect(res.statusCode, `${caller} ${method} ${url}`).toBe(400);
      }
    }
  });

  it('answers 401 to an anonymous caller of every signed-in route, whatever its body or parameters', async () => {
    const bare = new TestClient(t.app); // no session, no CSRF token at all
    for (const [method, url, endpoint] of routes) {
      if (endpoint?.callers === 'anyone') continue;
      for (const client of [clients.anonymous!, bare]) {
        for (const body of ['empty', 'broken'] as const) {
          const res = await call(t, client, method, url, body);
          expect([res.statusCode, res.json()], `${method} ${url} ${body}`).toEqual([
            401,
            { errors: [messages.signInRequired] },
          ]);
        }
      }
    }
  });

  it('answers 403 to a wrongly-roled caller of every role route, whatever its body or parameters, audited', async () => {
    const audits = await countRows(t, 'audit_events');
    let audited = 0;
    for (const [method, url, endpoint] of routes) {
      if (!endpoint || endpoint.callers === 'anyone' || endpoint.callers === 'signedIn') continue;
      const message = refusals[endpoint.callers];
      const refused = (Object.keys(signedIn) as Caller[]).filter(
        (caller) => !mayCall(endpoint.callers, signedIn[caller]),
      );
      expect(refused.length, `${method} ${url}`).toBeGreaterThan(0);
      for (const caller of refused) {
        for (const body of ['empty', 'broken'] as const) {
          const res = await call(t, clients[caller]!, method, url, body);
          expect([res.statusCode, res.json()], `${caller} ${method} ${url} ${body}`).toEqual([
            403,
            { errors: [message] },
          ]);
          if (auditedRefusals.has(endpoint.callers)) audited += 1;
        }
      }
    }
    expect((await countRows(t, 'audit_events')) - audits).toBe(audited);
  });

  it('admits a service token past the guards of every route with a token scope, and refuses it on every other (403)', async () => {
    let calls = 0;
    // Each from its own address: refused tokens are rate-limited per address (not the point here).
    const bearer = (method: string, url: string, value: string) =>
      t.app.inject({
        method: method as 'GET',
        url: pathOf(url),
        remoteAddress: `198.51.100.${(calls += 1)}`,
        headers: { authorization: `Bearer ${value}`, 'content-type': 'application/json' },
        ...(method === 'GET' ? {} : { payload: '{"broken' }),
      });
    expect(token).toMatch(/^pra_/);
    let scoped = 0;
    for (const [method, url, endpoint] of routes) {
      const res = await bearer(method, url, token);
      if (endpoint?.tokenScope) {
        scoped += 1;
        expect([401, 403], `${method} ${url}: ${res.body}`).not.toContain(res.statusCode);
        if (method !== 'GET') expect(res.statusCode, `${method} ${url}`).toBe(400);
      } else if (url === api.samlAcs) {
        // The ACS sends every refusal to the sign-in failure page (a browser's form post).
        expect([res.statusCode, res.headers.location, res.headers['set-cookie']]).toEqual([
          303,
          webRoutes.authFailure,
          undefined,
        ]);
      } else {
        expect([res.statusCode, res.json()], `${method} ${url}`).toEqual([
          403,
          { errors: [tokenMessages.notForTokens] },
        ]);
      }
      // A made-up token: 401 everywhere, whatever the route's callers.
      const made = await bearer(method, url, `pra_${'Z'.repeat(43)}`);
      if (url === api.samlAcs) continue;
      expect([made.statusCode, made.json()], `${method} ${url}`).toEqual([
        401,
        { errors: [tokenMessages.invalid] },
      ]);
      expect(made.headers['www-authenticate'], `${method} ${url}`).toContain('error="invalid_token"');
    }
    expect(scoped).toBeGreaterThan(25);
  });

  it('gives a token scope to exactly the admin and BRM calls, a read scope to reads and a write scope to changes', () => {
    const automation = new Set<Callers>([
      'admin',
      'adminOrAuditor',
      'brmOrAdmin',
      'vendorOrManager',
      'employeeBrm',
    ]);
    for (const endpoint of allEndpoints) {
      const where = `${endpoint.method} ${endpoint.path}`;
      const tokenManagement = endpoint.path.startsWith('/api/admin/service-tokens');
      expect(Boolean(endpoint.tokenScope), where).toBe(automation.has(endpoint.callers) && !tokenManagement);
      if (endpoint.tokenScope?.endsWith(':read')) expect(endpoint.method, where).toBe('GET');
      if (endpoint.tokenScope && endpoint.method === 'GET')
        expect(endpoint.tokenScope, where).toMatch(/:read$/);
    }
    const used = new Set(allEndpoints.map((endpoint) => endpoint.tokenScope).filter(Boolean));
    expect([...used].sort()).toEqual([...tokenScopes].sort());
  });

  it('answers 403 to the auditor on every call that changes something, audited, and lets them read', async () => {
    const audits = await countRows(t, 'audit_events');
    let refused = 0;
    for (const [method, url, endpoint] of routes) {
      if (!endpoint || endpoint.callers === 'anyone') continue;
      if (method === 'GET' || endpoint.operationId === 'extendSession') {
        if (!mayCall(endpoint.callers, signedIn.admin) && !mayCall(endpoint.callers, signedIn.brm)) continue;
        const res = await call(t, clients.auditor!, method, url, 'broken');
        expect([401, 403], `auditor ${method} ${url}: ${res.body}`).not.toContain(res.statusCode);
        continue;
      }
      const res = await call(t, clients.auditor!, method, url, 'broken');
      if (!mayCall(endpoint.callers, signedIn.admin) && !mayCall(endpoint.callers, signedIn.brm)) {
        expect(res.statusCode, `auditor ${method} ${url}`).toBe(403);
        continue;
      }
      expect([res.statusCode, res.json()], `auditor ${method} ${url}`).toEqual([
        403,
        { errors: ['Unauthorized: Auditors have read-only access'] },
      ]);
      refused += 1;
    }
    expect(refused).toBeGreaterThan(10);
    expect((await countRows(t, 'audit_events')) - audits).toBeGreaterThanOrEqual(refused);
  });

  it('lets the reports-only auditor (no admin flag) read exactly the reports, review evidence and audit trail, and refuses every change', async () => {
    const readable: string[] = [];
    let refusedChanges = 0;
    for (const [method, url, endpoint] of routes) {
      if (!endpoint || endpoint.callers === 'anyone') continue;
      const res = await call(t, clients.reportsAuditor!, method, url, 'broken');
      if (method !== 'GET' && endpoint.operationId !== 'extendSession') {
        expect(res.statusCode, `reportsAuditor ${method} ${url}`).toBe(403);
        if (endpoint.callers === 'signedIn') expect(res.json(), url).toEqual({ errors: [AUDITOR_READ_ONLY] });
        refusedChanges += 1;
        continue;
      }
      if (endpoint.callers === 'adminOrAuditor') {
        expect([401, 403], `reportsAuditor ${method} ${url}: ${res.body}`).not.toContain(res.statusCode);
        readable.push(url);
      } else if (endpoint.callers !== 'signedIn') {
        expect(res.statusCode, `reportsAuditor ${method} ${url}`).toBe(403);
      }
    }
    expect(refusedChanges).toBeGreaterThan(10);
    // Every report, the review evidence and the audit trail; nothing else of Administration.
    for (const url of readable)
      expect(url, url).toMatch(/^\/api\/admin\/(reports\/|sponsorship$|audit|reviews\/:id\/evidence\.)/);
    for (const [method, url] of routes)
      if (method === 'GET' && /^\/api\/admin\/reports\//.test(url)) expect(readable, url).toContain(url);
    expect(readable).toEqual(
      expect.arrayContaining([
        '/api/admin/reports/vendor-access.csv',
        '/api/admin/reviews/:id/evidence.csv',
        '/api/admin/reviews/:id/evidence.json',
        '/api/admin/audit',
        '/api/admin/audit/export.csv',
        '/api/admin/sponsorship',
      ]),
    );
  });

  it('answers 405 with Allow to a method a route does not serve, signed in or not, with or without a CSRF token', async () => {
    const bare = new TestClient(t.app);
    for (const route of servedRoutes(t.app)) {
      if (!route.url.startsWith('/api/')) continue;
      const method = ['PUT', 'DELETE', 'PATCH', 'POST', 'GET'].find((m) => !route.methods.includes(m))!;
      for (const client of [bare, clients.anonymous!, clients.vendor!, clients.admin!]) {
        // Whatever the body: nothing will read it (a broken one is no 400 either).
        for (const body of ['empty', 'broken'] as const) {
          const res = await call(t, client, method, route.url, body);
          expect(res.statusCode, `${method} ${route.url} ${body}`).toBe(405);
          expect(String(res.headers.allow).split(', ').sort()).toEqual([...route.methods].sort());
          expect(res.json()).toEqual({ errors: [messages.methodNotAllowed] });
        }
      }
    }
    // A path no route serves is still 404, and the web app's pages are no 405 (its static files
    // are served by a wildcard route when the web app is built).
    const none = await call(t, clients.admin!, 'POST', '/api/no-such-call', 'empty');
    expect(none.statusCode).toBe(404);
    expect((await call(t, clients.admin!, 'POST', '/welcome', 'empty')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/home' })).statusCode).not.toBe(405);
    // A missing static file: 404 with the web app built; without a build (unit tests run before
    // npm test builds it) every page answers 503 'not built'.
    const webAppBuilt = existsSync(fileURLToPath(new URL('../../../web/dist/index.html', import.meta.url)));
    expect((await t.app.inject({ method: 'GET', url: '/assets/none.js' })).statusCode).toBe(
      webAppBuilt ? 404 : 503,
    );
  });
});
