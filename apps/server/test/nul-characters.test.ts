// U+0000 in any string a request carries: PostgreSQL cannot store it, so it must be a 400 with a
// clear message, never a 500 — through the schemas, the IdP's forms, and the error handler.
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textFieldMessages } from '@pra/contracts/text-fields';
import { registerErrorHandling } from '../src/http/errors';
import { createTestDatabase, testDatabaseKinds } from './support/databases';
import { PASSWORD, createIdpAccount, csrfOf, startSignIn } from './support/idp-kit';
import { createAccount, signInAs } from './support/sign-in';
import { TestClient, createTestApp, type TestApp } from './support/test-app';
import { addOrganization, addRequest, assignBrm } from './support/world';

const NUL = '\u0000';
const nulMessage = 'Must not contain NUL characters';

describe.each(testDatabaseKinds)('NUL characters in requests on %s', (kind) => {
  let t: TestApp;
  let organizationId: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { IDP: 'builtin' });
    organizationId = await addOrganization(t, 'Nul Org', ['nul.example']);
  });
  afterAll(async () => t?.close());

  it('refuses them in registration names', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const res = await client.post('/api/user/new/submit', {
      firstName: `Ann${NUL}`,
      lastName: 'Vendor',
      email: 'ann@nul.example',
      org: 'Nul Org',
    });
    expect(res.statusCode).toBe(400);
    // Names refuse NUL as every control character, with the text fields' message.
    expect(res.json()).toEqual({ errors: [`firstName: ${textFieldMessages.invalidCharacters}`] });
  });

  it('refuses them in an approval comment', async () => {
    const brmId = await createAccount(t, { username: 'nulbrm', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brmId, organizationId);
    const requestId = await addRequest(t, 'New Account', [[organizationId, 'pending']]);
    const brm = await signInAs(t, 'nulbrm');
    const res = await brm.post('/api/brm/pending-approvals/approve-or-deny', {
      decision: 'DENY',
      requestId,
      comment: `no${NUL}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: [`comment: ${textFieldMessages.invalidCharacters}`] });
  });

  it('refuses them in the anonymous organization lookup by domain', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/orgs/email-domain?domain=a%00b',
      headers: { 'x-pra-api-call': 'true' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: [`domain: ${nulMessage}`] });
  });

  it("refuses them in the built-in IdP's username field with a page saying so", async () => {
    const { username } = await createIdpAccount(t);
    const { client, loginPage } = await startSignIn(t);
    const res = await client.postForm('/idp/login', {
      csrfToken: csrfOf(loginPage),
      username: `${username}${NUL}`,
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Your username or password contains characters that are not allowed.');
  });

  it("refuses them in the audit export's filter with a 400, instead of cutting the download", async () => {
    await createAccount(t, { username: 'nuladmin', type: 'employee', isAdmin: true });
    const admin = await signInAs(t, 'nuladmin');
    for (const field of ['person', 'actor', 'target', 'organization', 'action']) {
      const res = await admin.get(`/api/admin/audit/export.csv?${field}=a%00b`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: [`${field}: ${nulMessage}`] });
    }
    // The page of the same filter too.
    expect((await admin.get('/api/admin/audit?person=a%00b')).statusCode).toBe(400);
    const ok = await admin.get('/api/admin/audit/export.csv?person=nuladmin');
    expect(ok.statusCode).toBe(200);
    expect(ok.body.split('\n')[0]).toContain('occurredAt');
  });

  it('turns a NUL that reaches the database into a 400, never a 500', async () => {
    const database = await createTestDatabase(kind);
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/echo', async () => (await sql`select ${`a${NUL}b`}::text as v`.execute(database.db)).rows);
    try {
      const res = await app.inject({ method: 'GET', url: '/echo' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: ['The request contains characters that are not allowed.'] });
    } finally {
      await app.close();
      await database.close();
    }
  }, 60_000);
});
