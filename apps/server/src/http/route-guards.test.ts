import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../test/support/test-app';
import { countRows } from '../../test/support/world';
import { messages } from '../platform/app-error';
import { servedRoutes } from './served-methods';

/** Who may call an API route. */
type Audience = 'public' | 'signedIn' | 'vendor' | 'vendorOrManager' | 'brmOrAdmin' | 'employeeBrm' | 'admin';

/**
 * Every API route by method. A route added without a line here fails the first test: whoever adds
 * it says who may call it, and the matrix below then checks the answer before anything is read.
 */
const audiences: Record<string, Audience> = {
  'GET /api/openapi.json': 'public',
  'GET /api/csrf': 'public',
  'GET /api/saml/is-authenticated': 'public',
  'GET /api/saml/login/standard': 'public',
  'POST /api/saml/acs': 'public',
  'GET /api/saml/metadata': 'public',
  'GET /api/saml/logout': 'public',
  'GET /api/user': 'signedIn',
  'POST /api/user/extend-session': 'signedIn',
  'GET /api/user/auth': 'vendor',
  'POST /api/user/auth/change-password': 'vendor',
  'GET /api/vendor/access/current': 'vendorOrManager',
  'GET /api/vendor/access/pending': 'vendorOrManager',
  'GET /api/vendor/roles': 'vendorOrManager',
  'POST /api/vendor/access/request': 'vendorOrManager',
  'POST /api/vendor/access/current/cancel': 'vendorOrManager',
  'POST /api/vendor/access/pending/cancel': 'vendorOrManager',
  'GET /api/brm/pending-approvals': 'brmOrAdmin',
  'POST /api/brm/pending-approvals/approve-or-deny': 'brmOrAdmin',
  'GET /api/brm/users': 'brmOrAdmin',
  'POST /api/brm/users/enable-or-disable': 'brmOrAdmin',
  'POST /api/brm/users/send-otp-email': 'brmOrAdmin',
  'POST /api/brm/users/reset-activation-code': 'brmOrAdmin',
  'POST /api/brm/terminate-vendors': 'employeeBrm',
  'POST /api/user/new/email-in-use': 'public',
  'GET /api/orgs/email-domain': 'public',
  'POST /api/user/new/submit': 'public',
  'GET /api/user/new/availability': 'public',
  'POST /api/user/activate/decode': 'public',
  'POST /api/user/activate/activate-with-password': 'public',
  'GET /api/user/auth/password-requirements': 'public',
  'POST /api/user/forgot-user-id/search': 'public',
  'POST /api/user/forgot-password/identify': 'public',
  'POST /api/user/forgot-password/identify-by-code': 'public',
  'POST /api/user/forgot-password/verify-otp': 'public',
  'POST /api/user/forgot-password/ping-push': 'public',
  'POST /api/user/forgot-password/send-reset-email': 'public',
  'POST /api/user/forgot-password/set-password': 'public',
  'POST /api/user/authenticator/pair': 'signedIn',
  'POST /api/user/authenticator/confirm': 'signedIn',
  'POST /api/user/authenticator/remove': 'signedIn',
  'GET /api/user/authenticators': 'signedIn',
  'POST /api/authenticator/status': 'public',
  'POST /api/authenticator/answer': 'public',
  'GET /api/system/message': 'public',
  'POST /api/client-log': 'public',
  'GET /api/service_check': 'public',
  'GET /api/admin/organizations': 'admin',
  'POST /api/admin/organizations': 'admin',
  'PATCH /api/admin/organizations/:id': 'admin',
  'POST /api/admin/organizations/:id/domains': 'admin',
  'DELETE /api/admin/organizations/:id/domains/:domain': 'admin',
  'GET /api/admin/people': 'admin',
  'POST /api/admin/people': 'admin',
  'PATCH /api/admin/people/:id': 'admin',
  'DELETE /api/admin/people/:id': 'admin',
  'GET /api/admin/system-message': 'admin',
  'PUT /api/admin/system-message': 'admin',
  'GET /api/admin/maintenance': 'admin',
  'PUT /api/admin/maintenance': 'admin',
  'GET /api/admin/mail': 'admin',
  'POST /api/admin/mail/:id/resend': 'admin',
  'GET /api/admin/audit': 'admin',
  'GET /api/admin/audit/export.csv': 'admin',
};

/** The signed-in callers each audience refuses, and the message they get. */
const refused: Partial<Record<Audience, { callers: string[]; message: string }>> = {
  vendor: {
    callers: ['employee', 'brm', 'admin'],
    message: 'Unauthorized: This feature is for vendor accounts',
  },
  vendorOrManager: { callers: ['employee'], message: messages.forbidden },
  brmOrAdmin: { callers: ['vendor', 'employee'], message: 'Unauthorized: User does not have a BRM role' },
  employeeBrm: {
    callers: ['vendor', 'employee', 'admin'],
    message: 'Unauthorized: User does not have a BRM role',
  },
  admin: { callers: ['vendor', 'employee', 'brm'], message: 'Unauthorized: User is not an admin' },
};

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
  const routes: [string, string, Audience][] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    await createAccount(t, { username: 'vendor' });
    await createAccount(t, { username: 'employee', type: 'employee' });
    await createAccount(t, { username: 'brm', type: 'employee', isEmployeeBrm: true });
    await createAccount(t, { username: 'admin', type: 'employee', isAdmin: true });
    for (const name of ['vendor', 'employee', 'brm', 'admin']) clients[name] = await signInAs(t, name);
    clients.anonymous = new TestClient(t.app);
    await clients.anonymous.fetchCsrf();
    for (const route of servedRoutes(t.app)) {
      if (!route.url.startsWith('/api/')) continue;
      for (const method of route.methods) {
        if (method === 'HEAD') continue;
        routes.push([method, route.url, audiences[`${method} ${route.url}`]!]);
      }
    }
  });
  afterAll(async () => t?.close());

  it('knows who may call every route', () => {
    const served = routes.map(([method, url]) => `${method} ${url}`).sort();
    expect(served).toEqual(Object.keys(audiences).sort());
  });

  it('answers 401 to an anonymous caller of every signed-in route, whatever its body or parameters', async () => {
    const bare = new TestClient(t.app); // no session, no CSRF token at all
    for (const [method, url, audience] of routes) {
      if (audience === 'public') continue;
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
    for (const [method, url, audience] of routes) {
      const rule = refused[audience];
      if (!rule) continue;
      for (const caller of rule.callers) {
        for (const body of ['empty', 'broken'] as const) {
          const res = await call(t, clients[caller]!, method, url, body);
          expect([res.statusCode, res.json()], `${caller} ${method} ${url} ${body}`).toEqual([
            403,
            { errors: [rule.message] },
          ]);
          if (audience === 'brmOrAdmin' || audience === 'admin' || audience === 'vendorOrManager')
            audited += 1;
        }
      }
    }
    expect((await countRows(t, 'audit_events')) - audits).toBe(audited);
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
