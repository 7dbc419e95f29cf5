import { adminApi, api } from '@pra/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCode, hashCode } from '../../identity/codes';
import { sendResetLink } from '../../identity/reset-link';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm, auditActions, outbox } from '../../../test/support/world';

const path = (template: string, params: Record<string, string>) =>
  template.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));

const someId = '00000000-0000-4000-8000-000000000000';
const CODE = /[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/;

/** Every admin call, each with a body it would accept. */
const calls: [method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown][] = [
  ['GET', adminApi.organizations],
  ['POST', adminApi.organizations, { name: 'Nope', domains: [] }],
  ['PATCH', path(adminApi.organization, { id: someId }), { isActive: false }],
  ['POST', path(adminApi.organizationDomains, { id: someId }), { domain: 'nope.example' }],
  ['DELETE', path(adminApi.organizationDomain, { id: someId, domain: 'nope.example' })],
  ['GET', adminApi.people],
  ['POST', adminApi.people, { username: 'nope', givenName: 'N', familyName: 'O', email: 'n@o.example' }],
  ['PATCH', path(adminApi.person, { id: someId }), { isAdmin: true }],
  ['DELETE', path(adminApi.person, { id: someId })],
  ['GET', adminApi.systemMessage],
  [
    'PUT',
    adminApi.systemMessage,
    {
      enabled: true,
      loggedInOnly: false,
      severity: 'info',
      title: '',
      text: 'x',
      startsAt: null,
      endsAt: null,
    },
  ],
  ['GET', adminApi.maintenance],
  ['PUT', adminApi.maintenance, { maintenance: true }],
  ['GET', adminApi.mail],
  ['POST', path(adminApi.mailResend, { id: someId })],
  ['GET', adminApi.audit],
  ['GET', adminApi.auditExport],
];

async function call(client: TestClient, method: string, url: string, body?: unknown) {
  return method === 'GET' ? client.get(url) : client.send(method as 'POST', url, body);
}

describe.each(testDatabaseKinds)('admin API on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind);
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    ids.admin = await createAccount(t, { username: 'theadmin', type: 'employee', isAdmin: true });
    ids.brm = await createAccount(t, { username: 'thebrm', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, ids.brm, ids.acme);
    await createAccount(t, { username: 'thevendor' });
    admin = await signInAs(t, 'theadmin');
  });
  afterAll(async () => t?.close());

  it('answers 30 admins creating one organization at once with one 200 and 409s, never a 500, and makes one', async () => {
    // The name check runs before the insert: on PostgreSQL concurrent creates all passed it and the
    // unique index refused the others with a 500 (found from outside, production mode).
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        admin.post(adminApi.organizations, {
          name: i % 2 ? 'Race Org' : 'race org',
          domains: ['race.example'],
        }),
      ),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, ...Array<number>(29).fill(409)]);
    for (const res of answers.filter((r) => r.statusCode === 409))
      expect(res.json<{ errors: string[] }>().errors[0]).toMatch(
        /^An organization named "(Race Org|race org)" already exists\.$/,
      );
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from organizations where lower(name) = 'race org'`.execute(t.ctx.db);
    expect(rows[0]!.n).toBe(1);
  });

  it('answers 10 organizations renamed to one name at once with one 200 and 409s, never a 500', async () => {
    const orgs = await Promise.all(
      Array.from({ length: 10 }, (_, i) => addOrganization(t, `Renamed ${i}`, [])),
    );
    const answers = await Promise.all(
      orgs.map((id) => admin.send('PATCH', path(adminApi.organization, { id }), { name: 'One Name' })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
  });

  it('refuses every admin call to anonymous (401), vendor and BRM (403) callers, changing nothing', async () => {
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const vendor = await signInAs(t, 'thevendor');
    const brm = await signInAs(t, 'thebrm');
    for (const [method, url, body] of calls) {
      expect((await call(anonymous, method, url, body)).statusCode, `${method} ${url}`).toBe(401);
      for (const client of [vendor, brm]) {
        const res = await call(client, method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ errors: ['Unauthorized: User is not an admin'] });
      }
    }
    expect((await auditActions(t, 'maintenance.on')).length).toBe(0);
    // Each refused call of a signed-in person is audited as denied; anonymous callers are not.
    const refused = await auditActions(t, 'access.role-refused');
    expect(refused).toHaveLength(calls.length * 2);
    expect(new Set(refused.map((e) => e.actor_username))).toEqual(new Set(['thevendor', 'thebrm']));
  });

  it('creates an organization with domains; lists it with its role name; refuses duplicate names and bad domains; a domain may be shared', async () => {
    const res = await admin.post(adminApi.organizations, {
      name: 'Northwind',
      domains: ['NorthWind.example'],
    });
    expect(res.statusCode).toBe(200);
    ids.northwind = res.json<{ id: string }>().id;
    const list = await admin.get(`${adminApi.organizations}?filter=northwind.EX`);
    expect(list.json()).toEqual({
      organizations: [
        {
          id: ids.northwind,
          name: 'Northwind',
          roleName: 'PRA - Vendor Access - Northwind - BR',
          isActive: true,
          domains: ['northwind.example'],
          brms: [],
          riskTier: 'standard',
          contractEndsOn: null,
        },
      ],
    });
    const dup = await admin.post(adminApi.organizations, { name: 'northwind' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ errors: ['An organization named "northwind" already exists.'] });
    for (const domain of ['https://x.example', 'jane@x.example', 'x.example/path']) {
      const bad = await admin.post(adminApi.organizations, { name: 'Bad', domains: [domain] });
      expect(bad.statusCode, domain).toBe(400);
      expect(bad.json<{ errors: string[] }>().errors[0]).toContain('no scheme (https://), no @');
    }
    // A domain may belong to several organizations: registration then offers each of them.
    const shared = await admin.post(path(adminApi.organizationDomains, { id: ids.northwind }), {
      domain: 'acme.example',
    });
    expect(shared.statusCode).toBe(200);
    const offered = await admin.get('/api/orgs/email-domain?domain=acme.example');
    expect(offered.json()).toEqual(expect.arrayContaining(['Acme Imaging', 'Northwind']));
    const removed = await admin.send(
      'DELETE',
      path(adminApi.organizationDomain, { id: ids.northwind, domain: 'acme.example' }),
    );
    expect(removed.statusCode).toBe(200);
  });

  it('renames (the role name follows), deactivates — then registration finds no organization — and reactivates', async () => {
    const url = path(adminApi.organization, { id: ids.northwind! });
    expect((await admin.send('PATCH', url, { name: 'Northwind Traders' })).statusCode).toBe(200);
    const orgs = await admin.get(`${adminApi.organizations}?filter=traders`);
    expect(orgs.json().organizations[0].roleName).toBe('PRA - Vendor Access - Northwind Traders - BR');
    expect((await admin.send('PATCH', url, { isActive: false })).statusCode).toBe(200);
    const lookup = () => new TestClient(t.app).get(`${api.orgsByDomain}?domain=northwind.example`);
    expect((await lookup()).json()).toEqual([]);
    await admin.send('PATCH', url, { isActive: true });
    expect(JSON.stringify((await lookup()).json())).toContain('Northwind Traders');
    const domain = path(adminApi.organizationDomain, { id: ids.northwind!, domain: 'northwind.example' });
    expect((await admin.send('DELETE', domain)).statusCode).toBe(200);
    expect((await admin.send('DELETE', domain)).statusCode).toBe(404);
  });

  it('adds people with flags and managed organizations; refuses to leave an organization without a BRM', async () => {
    const res = await admin.post(adminApi.people, {
      username: 'new.brm',
      givenName: 'New',
      familyName: 'Brm',
      email: 'new.brm@hospital.example',
      isEmployeeBrm: true,
      organizations: ['Northwind Traders'],
    });
    expect(res.statusCode).toBe(200);
    ids.newBrm = res.json<{ id: string }>().id;
    const people = (await admin.get(adminApi.people)).json<{ people: { username: string }[] }>().people;
    expect(people.find((p) => p.username === 'new.brm')).toMatchObject({
      isEmployeeBrm: true,
      isAdmin: false,
      organizations: ['Northwind Traders'],
    });
    const unknownOrg = await admin.send('PATCH', path(adminApi.person, { id: ids.newBrm }), {
      organizations: ['No Such Org'],
    });
    expect(unknownOrg.json()).toEqual({ errors: ['No organization named "No Such Org".'] });
    const unknownPerson = await admin.send('PATCH', path(adminApi.person, { id: someId }), {
      isEmployeeBrm: true,
    });
    expect(unknownPerson.statusCode).toBe(404);
    expect(unknownPerson.json()).toEqual({ errors: ['Person not found.'] });
    const last = await admin.send('DELETE', path(adminApi.person, { id: ids.newBrm }));
    expect(last.statusCode).toBe(409);
    expect(last.json<{ errors: string[] }>().errors[0]).toContain(
      'Assign another BRM first: this would leave Northwind Traders without a BRM',
    );
    const unflag = await admin.send('PATCH', path(adminApi.person, { id: ids.brm! }), {
      isEmployeeBrm: false,
    });
    expect(unflag.json<{ errors: string[] }>().errors[0]).toContain('Acme Imaging');
    // With a replacement, removal goes through.
    await admin.send('PATCH', path(adminApi.person, { id: ids.brm! }), {
      organizations: ['Acme Imaging', 'Northwind Traders'],
    });
    expect((await admin.send('DELETE', path(adminApi.person, { id: ids.newBrm }))).statusCode).toBe(200);
    const self = await admin.send('DELETE', path(adminApi.person, { id: ids.admin! }));
    expect(self.json()).toEqual({ errors: ['You cannot remove your own admin flag or account here.'] });
    const dupUser = await admin.post(adminApi.people, {
      username: 'THEBRM',
      givenName: 'X',
      familyName: 'Y',
      email: 'x@y.example',
    });
    expect(dupUser.json()).toEqual({ errors: ['The username "THEBRM" is already in use.'] });
  });

  it('sets the system message with a time window, and maintenance, which iiqAvailable follows', async () => {
    const message = {
      enabled: true,
      loggedInOnly: false,
      severity: 'warning',
      title: 'Heads up',
      text: 'Upgrade tonight',
      startsAt: null,
      endsAt: '2999-01-01T00:00:00Z',
    };
    expect((await admin.send('PUT', adminApi.systemMessage, message)).statusCode).toBe(200);
    expect((await new TestClient(t.app).get(api.systemMessage)).json()).toMatchObject({
      text: 'Upgrade tonight',
    });
    const backwards = await admin.send('PUT', adminApi.systemMessage, {
      ...message,
      startsAt: '2999-02-01T00:00:00Z',
    });
    expect(backwards.json()).toEqual({ errors: ['The end time must be after the start time.'] });
    const on = await admin.send('PUT', adminApi.maintenance, { maintenance: true });
    expect(on.json()).toEqual({ maintenance: true, forcedBySetting: false });
    expect((await admin.get(api.user)).json().iiqAvailable).toBe(false);
    // Account-changing calls answer 503 while the flag is on.
    const refused = await admin.post(api.approveOrDeny, {
      requestId: someId,
      decision: 'APPROVE',
      comment: '',
    });
    expect(refused.statusCode).toBe(503);
    await admin.send('PUT', adminApi.maintenance, { maintenance: false });
    expect((await admin.get(api.user)).json().iiqAvailable).toBe(true);
    expect(await auditActions(t, 'maintenance.on')).toHaveLength(1);
  });

  it('pages the audit trail newest first with a keyset cursor, filters it, and exports CSV safely', async () => {
    await t.ctx.db
      .insertInto('audit_events')
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          action: 'test.page',
          outcome: 'failure' as const,
          actor_username: i === 0 ? '=cmd|calc' : 'pager',
          target_username: 'someone',
          occurred_at: new Date(Date.UTC(2020, 0, 1, 0, 0, i)),
          details: JSON.stringify({ i }),
        })),
      )
      .execute();
    const first = (await admin.get(`${adminApi.audit}?action=test.&limit=2`)).json();
    expect(first.events.map((e: { details: { i: number } }) => e.details.i)).toEqual([4, 3]);
    const second = (
      await admin.get(`${adminApi.audit}?action=test.&limit=2&cursor=${first.nextCursor}`)
    ).json();
    expect(second.events.map((e: { details: { i: number } }) => e.details.i)).toEqual([2, 1]);
    const third = (
      await admin.get(`${adminApi.audit}?action=test.&limit=2&cursor=${second.nextCursor}`)
    ).json();
    expect(third.nextCursor).toBeNull();
    expect((await admin.get(`${adminApi.audit}?cursor=garbage`)).json()).toEqual({
      errors: ['The page cursor is not valid; start from the first page.'],
    });
    const byActor = (await admin.get(`${adminApi.audit}?actor=theadmin&action=organization.create`)).json();
    expect(byActor.events[0]).toMatchObject({ actor: 'theadmin', organization: 'Northwind Traders' });
    const csv = await admin.get(`${adminApi.auditExport}?action=test.page&outcome=failure`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toContain(",'=cmd|calc,");
  });

  it('lists undeliverable mail with its error and resends an activation mail with a new code, never the old', async () => {
    const vendorId = await createAccount(t, { username: 'pending.vendor', status: 'pendingActivation' });
    const oldCode = await t.ctx.db.transaction().execute((tx) =>
      createCode(tx, {
        pepper: t.ctx.session.secret,
        accountId: vendorId,
        kind: 'activation',
        ttlSeconds: 3600,
      }),
    );
    const { id: mailId } = await t.ctx.db
      .insertInto('outbox')
      .values({
        recipient: 'pending.vendor@example.test',
        subject: 'activate',
        text_body: `code ${oldCode}`,
        html_body: `code ${oldCode}`,
        template: 'account-approved',
        status: 'undeliverable',
        attempts: 1,
        last_error: '550 mailbox unavailable',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const list = (await admin.get(adminApi.mail)).json();
    expect(list.mails).toContainEqual(
      expect.objectContaining({ id: mailId, status: 'undeliverable', lastError: '550 mailbox unavailable' }),
    );
    expect((await admin.post(path(adminApi.mailResend, { id: mailId }), {})).statusCode).toBe(200);
    const mails = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', 'pending.vendor@example.test')
      .where('status', '=', 'pending')
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).not.toContain(oldCode);
    expect(mails[0]!.text_body).toMatch(/[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/);
    const live = await t.ctx.db
      .selectFrom('codes')
      .select('id')
      .where('account_id', '=', vendorId)
      .where('expires_at', '>', new Date())
      .execute();
    expect(live).toHaveLength(1); // only the new code works
    expect((await auditActions(t, 'mail.resend'))[0]?.details).toMatchObject({ how: 'new activation code' });
    expect((await admin.post(path(adminApi.mailResend, { id: someId }), {})).json()).toEqual({
      errors: ['Mail not found.'],
    });
  });

  it('resends an undeliverable reset-link mail as a new link; the old code stops working', async () => {
    const vendorId = await createAccount(t, { username: 'reset.vendor' });
    const account = (await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', vendorId)
      .executeTakeFirst())!;
    await t.ctx.db
      .transaction()
      .execute((tx) =>
        sendResetLink(tx, t.ctx, { account, actor: null, clientAddress: '', action: 'password.reset-link' }),
      );
    const first = (await outbox(t, account.email)).at(-1)!;
    const oldCode = first.text_body.match(CODE)![0];
    await t.ctx.db
      .updateTable('outbox')
      .set({ status: 'undeliverable', text_body: '', html_body: '', last_error: '550 no such user' })
      .where('id', '=', first.id)
      .execute();
    expect((await admin.post(path(adminApi.mailResend, { id: first.id }), {})).statusCode).toBe(200);
    const again = (await outbox(t, account.email)).at(-1)!;
    expect(again.template).toBe('password-reset-link');
    const newCode = again.text_body.match(CODE)![0];
    expect(newCode).not.toBe(oldCode);
    const live = await t.ctx.db
      .selectFrom('codes')
      .select('code_hash')
      .where('account_id', '=', vendorId)
      .where('expires_at', '>', new Date())
      .where('used_at', 'is', null)
      .execute();
    expect(live.map((c) => c.code_hash)).toEqual([hashCode(t.ctx.session.secret, newCode)]);
    const resends = await auditActions(t, 'mail.resend');
    expect(resends.at(-1)?.details).toMatchObject({ how: 'new reset link' });
  });
});
