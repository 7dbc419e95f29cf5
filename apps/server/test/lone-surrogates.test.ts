// A lone UTF-16 surrogate ("x\ud800" in JSON) in any string a request carries is a 400 naming the
// field, from one rule applied before every route's schema: before, it was a 500 wherever the value
// reached an audit event's JSON (organization name, system-message title, authenticator nickname).
import { adminApi, api, LONE_SURROGATE_MESSAGE } from '@pra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from './support/databases';
import { PASSWORD, createIdpAccount, csrfOf, startSignIn } from './support/idp-kit';
import { createAccount, signInAs } from './support/sign-in';
import { TestClient, createTestApp, type TestApp } from './support/test-app';
import { addOrganization } from './support/world';

const LONE = 'x\ud800';

describe.each(testDatabaseKinds)('lone surrogates in requests on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let organizationId: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { IDP: 'builtin' });
    organizationId = await addOrganization(t, 'Surrogate Org', ['surrogate.example']);
    await createAccount(t, { username: 'lsadmin', type: 'employee', isAdmin: true });
    await createAccount(t, { username: 'lsvendor' });
    admin = await signInAs(t, 'lsadmin');
  });
  afterAll(async () => t?.close());

  const refusal = (field: string) => ({ errors: [`${field}: ${LONE_SURROGATE_MESSAGE}`] });

  it('refuses them in an organization name on POST and PATCH, storing nothing', async () => {
    const created = await admin.post(adminApi.organizations, { name: LONE, domains: [] });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual(refusal('name'));
    const changed = await admin.send('PATCH', adminApi.organization.replace(':id', organizationId), {
      name: `Org ${LONE}`,
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json()).toEqual(refusal('name'));
    const names = await t.ctx.db.selectFrom('organizations').select('name').execute();
    expect(names.map((row) => row.name)).toEqual(['Surrogate Org']);
  });

  it('refuses them in the system message title and in a domain list item', async () => {
    const res = await admin.send('PUT', adminApi.systemMessage, {
      enabled: true,
      loggedInOnly: false,
      severity: 'info',
      title: LONE,
      text: 'fine',
      startsAt: null,
      endsAt: null,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('title'));
    const listed = await admin.post(adminApi.organizations, {
      name: 'Fine Org',
      domains: ['a.example', LONE],
    });
    expect(listed.json()).toEqual(refusal('domains.1'));
  });

  it('refuses them in the authenticator nickname', async () => {
    const vendor = await signInAs(t, 'lsvendor');
    const res = await vendor.post(api.authenticatorPair, { nickname: LONE });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('nickname'));
  });

  it('refuses them in anonymous bodies and in keys', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const mail = await client.post(api.forgotSendResetEmail, { username: `lsvendor${LONE}` });
    expect(mail.statusCode).toBe(400);
    expect(mail.json()).toEqual(refusal('username'));
    const key = await client.post(api.forgotIdentifyByCode, { code: 'AAAA', [LONE]: 1 });
    expect(key.statusCode).toBe(400);
    expect(key.json()).toEqual(refusal(LONE));
  });

  it("refuses them in the built-in IdP's sign-in form, never a 500", async () => {
    const { username } = await createIdpAccount(t);
    const { client, loginPage } = await startSignIn(t);
    const res = await client.post('/idp/login', {
      csrfToken: csrfOf(loginPage),
      username: `${username}${LONE}`,
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Your username or password contains characters that are not allowed.');
  });
});
