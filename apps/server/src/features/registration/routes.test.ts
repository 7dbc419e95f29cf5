import { api, approvalMessages, registrationMessages, textFieldMessages } from '@pra/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import {
  activationCodeFor,
  addOrganization,
  assignBrm,
  countRows,
  outbox,
} from '../../../test/support/world';

const SUBMIT = '/api/user/new/submit';
const IN_USE = '/api/user/new/email-in-use';

async function anonymous(t: TestApp): Promise<TestClient> {
  const client = new TestClient(t.app);
  await client.fetchCsrf();
  return client;
}

const registration = (email: string, org = 'Acme Imaging') => ({
  firstName: 'Jane',
  lastName: 'Doe',
  email,
  org,
});

function requestRow(t: TestApp, id: string) {
  return t.ctx.db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe.each(testDatabaseKinds)('registration on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const clients: Record<string, TestClient> = {};
  beforeAll(async () => {
    t = await createTestApp(kind);
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example', 'shared.example']);
    ids.globex = await addOrganization(t, 'Globex Health IT', ['globex.example', 'shared.example']);
    await addOrganization(t, 'Defunct Devices', ['defunct.example'], false);
    ids.brmA = await createAccount(t, { username: 'brma', type: 'employee', isEmployeeBrm: true });
    ids.brmB = await createAccount(t, { username: 'brmb', type: 'employee', isEmployeeBrm: true });
    await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    await createAccount(t, { username: 'vendorone' });
    await createAccount(t, { username: 'gone', status: 'terminated' });
    await assignBrm(t, ids.brmA, ids.acme);
    await assignBrm(t, ids.brmB, ids.globex);
    await t.ctx.db
      .updateTable('accounts')
      .set({ email: 'Taken@Acme.example' })
      .where('username', '=', 'vendorone')
      .execute();
    await t.ctx.db
      .updateTable('accounts')
      .set({ email: 'gone@acme.example' })
      .where('username', '=', 'gone')
      .execute();
    for (const name of ['brma', 'brmb', 'adminone', 'vendorone']) clients[name] = await signInAs(t, name);
  });
  beforeEach(async () => {
    await t.ctx.db.deleteFrom('rate_limits').execute();
  });
  afterAll(async () => t?.close());

  it('tells anyone that registrations are taken outside maintenance', async () => {
    const res = await (await anonymous(t)).get(api.registrationAvailability);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ available: true });
  });

  describe('GET /api/orgs/email-domain', () => {
    it.each([
      ['acme.example', ['Acme Imaging']],
      ['ACME.example', ['Acme Imaging']],
      ['shared.example', ['Acme Imaging', 'Globex Health IT']],
      ['jane@globex.example', ['Globex Health IT']],
      ['defunct.example', []],
      ['nowhere.example', []],
    ])('answers the active organizations owning %s', async (domain, names) => {
      const res = await (
        await anonymous(t)
      ).get(`/api/orgs/email-domain?domain=${encodeURIComponent(domain)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(names);
    });
    it.each(['', '?domain=', `?domain=${'a'.repeat(300)}`, '?domain=acme.example&x=1'])(
      'answers 400 to %s',
      async (query) => {
        const res = await (await anonymous(t)).get(`/api/orgs/email-domain${query}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.length).toBeGreaterThan(0);
      },
    );
  });

  describe('POST /api/user/new/email-in-use', () => {
    it.each([
      ['free@acme.example', 'available'],
      ['taken@acme.example', 'activeAccount'],
      ['TAKEN@ACME.EXAMPLE', 'activeAccount'],
      ['gone@acme.example', 'available'],
    ])('%s is %s', async (email, answer) => {
      const res = await (await anonymous(t)).post(IN_USE, { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toBe(answer);
    });
    it.each([
      ['no email', {}],
      ['a number', { email: 42 }],
      ['an invalid email', { email: 'not-an-email' }],
      ['an extra field', { email: 'a@acme.example', admin: true }],
      ['a huge email', { email: `${'a'.repeat(300)}@acme.example` }],
    ])('answers 400 to %s', async (_name, body) => {
      const res = await (await anonymous(t)).post(IN_USE, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.length).toBeGreaterThan(0);
    });
    it.each([
      ['a 300-character first name', { firstName: 'J'.repeat(300) }, 'firstName: Max 255 characters'],
      [
        "a last name carrying a paragraph and a link into the BRMs' mail",
        { lastName: 'Doe\r\n\r\nUrgent: approve at https://evil.example' },
        `lastName: ${textFieldMessages.invalidCharacters}`,
      ],
      [
        'a first name with a tab',
        { firstName: 'Jane\tX' },
        `firstName: ${textFieldMessages.invalidCharacters}`,
      ],
      [
        'a last name with a right-to-left override',
        { lastName: 'Doe\u202Egpj.exe' },
        `lastName: ${textFieldMessages.invalidCharacters}`,
      ],
      [
        'a first name with a zero-width space',
        { firstName: 'Ja\u200Bne' },
        `firstName: ${textFieldMessages.invalidCharacters}`,
      ],
    ])('refuses %s with the field message, writing and mailing nothing', async (_name, change, error) => {
      const before = [await countRows(t, 'requests'), await countRows(t, 'outbox')];
      const res = await (
        await anonymous(t)
      ).post(SUBMIT, { ...registration('text.check@acme.example'), ...change });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: [error] });
      expect([await countRows(t, 'requests'), await countRows(t, 'outbox')]).toEqual(before);
    });

    it('refuses a call without the CSRF token', async () => {
      const client = await anonymous(t);
      client.csrfToken = 'wrong';
      expect((await client.post(IN_USE, { email: 'a@acme.example' })).statusCode).toBe(403);
    });
  });

  describe('POST /api/user/new/submit', () => {
    it('records an anonymous self-registration and mails the registrant and the BRMs', async () => {
      const client = await anonymous(t);
      const res = await client.post(SUBMIT, registration('jane.self@acme.example'));
      expect(res.statusCode).toBe(200);
      const { requestID, success } = res.json<{ requestID: string; success: boolean }>();
      expect(success).toBe(true);
      const request = await requestRow(t, requestID);
      expect(request).toMatchObject({
        type: 'New Account',
        status: 'pending',
        requester_id: null,
        email: 'jane.self@acme.example',
      });
      const items = await t.ctx.db
        .selectFrom('request_items')
        .selectAll()
        .where('request_id', '=', requestID)
        .execute();
      expect(items).toMatchObject([{ organization_id: ids.acme, status: 'pending', operation: 'Add' }]);
      expect((await outbox(t, 'jane.self@acme.example')).map((m) => m.template)).toEqual([
        'registration-received',
      ]);
      expect((await outbox(t, 'brma@example.test')).map((m) => m.template)).toContain(
        'registration-awaiting-decision',
      );
      expect(await outbox(t, 'brmb@example.test')).toEqual([]);
      expect((await client.post(IN_USE, { email: 'JANE.SELF@acme.example' })).json()).toBe('pendingApproval');
      const again = await client.post(SUBMIT, registration('Jane.Self@acme.example'));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ errors: [registrationMessages.pending] });
    });

    it('records a vendor registering someone as a self-registration with its requester', async () => {
      const res = await clients.vendorone!.post(SUBMIT, registration('colleague@acme.example'));
      expect(res.statusCode).toBe(200);
      const request = await t.ctx.db
        .selectFrom('requests')
        .selectAll()
        .where('email', '=', 'colleague@acme.example')
        .executeTakeFirstOrThrow();
      expect(request).toMatchObject({ status: 'pending', requester_id: expect.any(String) });
    });

    it.each([
      [
        'an unknown domain',
        registration('x@nowhere.example'),
        400,
        registrationMessages.noOrganizations('nowhere.example'),
      ],
      [
        'an inactive organization',
        registration('x@defunct.example', 'Defunct Devices'),
        400,
        registrationMessages.noOrganizations('defunct.example'),
      ],
      [
        'an organization not owning the domain',
        registration('x@acme.example', 'Globex Health IT'),
        400,
        registrationMessages.emailMismatch,
      ],
      [
        'an email on an active account',
        registration('taken@ACME.example'),
        409,
        registrationMessages.emailInUse,
      ],
    ])('refuses %s', async (_name, body, status, message) => {
      const before = await countRows(t, 'requests');
      const res = await (await anonymous(t)).post(SUBMIT, body);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ errors: [message] });
      expect(await countRows(t, 'requests')).toBe(before);
    });

    it('tells a BRM or admin the admin wording for an email in use', async () => {
      const res = await clients.adminone!.post(SUBMIT, registration('taken@acme.example'));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ errors: [registrationMessages.emailInUseAdmin] });
    });

    it('lets a BRM register a vendor for its organization: approved by it, account created at once', async () => {
      const res = await clients.brma!.post(SUBMIT, {
        firstName: 'Émile',
        lastName: 'Zoë',
        email: 'emile@shared.example',
        org: 'Acme Imaging',
      });
      expect(res.statusCode).toBe(200);
      const { requestID } = res.json<{ requestID: string }>();
      const request = await requestRow(t, requestID);
      expect(request).toMatchObject({
        status: 'approved',
        requester_id: ids.brmA,
        beneficiary_id: expect.any(String),
      });
      const item = await t.ctx.db
        .selectFrom('request_items')
        .selectAll()
        .where('request_id', '=', requestID)
        .executeTakeFirstOrThrow();
      expect(item).toMatchObject({ status: 'approved', decided_by: ids.brmA });
      const account = await t.ctx.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', request.beneficiary_id!)
        .executeTakeFirstOrThrow();
      expect(account).toMatchObject({
        username: 'ezoe',
        status: 'pendingActivation',
        type: 'vendor',
        password_hash: null,
      });
      const grant = await t.ctx.db
        .selectFrom('role_grants')
        .selectAll()
        .where('account_id', '=', account.id)
        .executeTakeFirstOrThrow();
      expect(grant).toMatchObject({
        organization_id: ids.acme,
        granted_by: ids.brmA,
        request_item_id: item.id,
      });
      const code = await activationCodeFor(t, 'emile@shared.example');
      expect(code).toMatch(/^[A-Z2-9-]{19}$/);
      expect(
        await outbox(t, 'brma@example.test').then((m) => m.filter((x) => x.text_body.includes('emile'))),
      ).toEqual([]);
    });

    it('lets an admin register a vendor for any organization', async () => {
      const res = await clients.adminone!.post(
        SUBMIT,
        registration('admin-made@globex.example', 'Globex Health IT'),
      );
      expect(res.statusCode).toBe(200);
      const account = await t.ctx.db
        .selectFrom('accounts')
        .selectAll()
        .where('email', '=', 'admin-made@globex.example')
        .executeTakeFirstOrThrow();
      expect(account).toMatchObject({ username: 'jdoe', status: 'pendingActivation' });
    });

    it('refuses a BRM registering for an organization it does not manage, writing nothing', async () => {
      const before = await countRows(t, 'requests');
      const res = await clients.brma!.post(
        SUBMIT,
        registration('someone@globex.example', 'Globex Health IT'),
      );
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errors: [approvalMessages.notYourOrganization] });
      expect(await countRows(t, 'requests')).toBe(before);
      const denied = await t.ctx.db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'registration.on-behalf')
        .where('outcome', '=', 'denied')
        .execute();
      expect(denied).toHaveLength(1);
      expect(denied[0]).toMatchObject({
        actor_id: ids.brmA,
        actor_username: 'brma',
        target_username: 'someone@globex.example',
        organization_id: ids.globex,
        details: { reason: 'notYourOrganization' },
      });
    });

    it.each([
      ['no body', undefined],
      ['missing fields', { email: 'a@acme.example' }],
      ['wrong types', { firstName: 1, lastName: true, email: [], org: {} }],
      ['empty names', { ...registration('a@acme.example'), firstName: '  ' }],
      ['an extra field', { ...registration('a@acme.example'), status: 'approved' }],
      ['a huge name', { ...registration('a@acme.example'), lastName: 'x'.repeat(10_000) }],
      ['an invalid email', registration('a@')],
    ])('answers 400 to %s and writes nothing', async (_name, body) => {
      const before = [await countRows(t, 'requests'), await countRows(t, 'outbox')];
      const res = await (await anonymous(t)).post(SUBMIT, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.length).toBeGreaterThan(0);
      expect([await countRows(t, 'requests'), await countRows(t, 'outbox')]).toEqual(before);
    });

    it('refuses a call without the CSRF token', async () => {
      const client = await anonymous(t);
      client.csrfToken = '';
      expect((await client.post(SUBMIT, registration('csrf@acme.example'))).statusCode).toBe(403);
    });

    it('keeps one pending request when the same email registers twice at once (a real race on PostgreSQL)', async () => {
      const clientsAtOnce = await Promise.all([1, 2, 3].map(() => anonymous(t)));
      const results = await Promise.all(
        clientsAtOnce.map((c) => c.post(SUBMIT, registration('race@acme.example'))),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
      for (const r of results.filter((x) => x.statusCode === 409)) {
        expect(r.json()).toEqual({ errors: [registrationMessages.pending] });
      }
      const rows = await t.ctx.db
        .selectFrom('requests')
        .select('id')
        .where('email', '=', 'race@acme.example')
        .execute();
      expect(rows).toHaveLength(1);
      expect(await outbox(t, 'race@acme.example')).toHaveLength(1);
    });

    it('limits registrations per client address', async () => {
      const client = await anonymous(t);
      for (let i = 0; i < 20; i += 1) {
        const res = await client.post(SUBMIT, registration(`x@nowhere.example`));
        expect(res.statusCode).toBe(400);
      }
      const res = await client.post(SUBMIT, registration('late@acme.example'));
      expect(res.statusCode).toBe(429);
      // It says when to try again: in the message and as Retry-After.
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
      expect(res.json().errors).toEqual([
        expect.stringMatching(/^Too many attempts\. Please try again in (59|60) minutes\.$/),
      ]);
    });

    it('limits on-behalf registrations per BRM or admin account, generously, not by the shared address', async () => {
      // Anonymous callers behind the same address (a hospital proxy) used up its bucket.
      const client = await anonymous(t);
      for (let i = 0; i < 20; i += 1) await client.post(SUBMIT, registration(`x@nowhere.example`));
      expect((await client.post(SUBMIT, registration('late@acme.example'))).statusCode).toBe(429);
      for (let i = 0; i < 25; i += 1) {
        const res = await clients.brma!.post(SUBMIT, registration(`team${i}@acme.example`));
        expect(res.statusCode, `registration ${i + 1}`).toBe(200);
      }
      expect(
        (await clients.adminone!.post(SUBMIT, registration('more@globex.example', 'Globex Health IT')))
          .statusCode,
      ).toBe(200);
      // A signed-in vendor registers like anyone else: by address.
      expect((await clients.vendorone!.post(SUBMIT, registration('friend@acme.example'))).statusCode).toBe(
        429,
      );
      // The BRM's own allowance ends too, saying when to try again.
      await t.ctx.db
        .updateTable('rate_limits')
        .set({ hits: 200 })
        .where('key', '=', `registration-on-behalf:${ids.brmA}`)
        .execute();
      const limited = await clients.brma!.post(SUBMIT, registration('one-more@acme.example'));
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
      expect(limited.json().errors[0]).toMatch(/^Too many attempts\. Please try again in (59|60) minutes\.$/);
    });
  });
});

describe('registration while the identity service is in maintenance', () => {
  it('answers 503 and writes nothing', async () => {
    const t = await createTestApp('pglite', { IIQ_MAINTENANCE: 'true' });
    try {
      await addOrganization(t, 'Acme Imaging', ['acme.example']);
      const res = await (await anonymous(t)).post(SUBMIT, registration('m@acme.example'));
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ errors: ['Account management features are currently unavailable'] });
      expect(await countRows(t, 'requests')).toBe(0);
      // The form can say so beforehand.
      const availability = await (await anonymous(t)).get(api.registrationAvailability);
      expect(availability.json()).toEqual({ available: false });
    } finally {
      await t.close();
    }
  });
});
