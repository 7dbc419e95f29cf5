import { approvalMessages, textFieldMessages, type PendingApproval } from '@pra/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import {
  addOrganization,
  addRequest,
  assignBrm,
  auditActions,
  countRows,
  outbox,
} from '../../../test/support/world';

const LIST = '/api/brm/pending-approvals';
const DECIDE = '/api/brm/pending-approvals/approve-or-deny';
const NOT_BRM = 'Unauthorized: User does not have a BRM role';

const inTwoWeeks = () => new Date(Date.now() + 14 * 86_400_000);

describe.each(testDatabaseKinds)('approvals on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const clients: Record<string, TestClient> = {};

  /** A self-registration through the API; returns its request id. */
  async function register(email: string, org = 'Acme Imaging', first = 'Jane', last = 'Doe') {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const res = await client.post('/api/user/new/submit', { firstName: first, lastName: last, email, org });
    if (res.statusCode !== 200) throw new Error(`registration failed: ${res.body}`);
    return res.json<{ requestID: string }>().requestID;
  }
  const requestStatus = async (requestId: string) =>
    (
      await t.ctx.db
        .selectFrom('requests')
        .select('status')
        .where('id', '=', requestId)
        .executeTakeFirstOrThrow()
    ).status;
  const listOf = async (name: string) =>
    (await clients[name]!.get(LIST)).json<{ pendingApprovals: PendingApproval[] }>().pendingApprovals;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    ids.globex = await addOrganization(t, 'Globex Health IT', ['globex.example']);
    ids.brmA = await createAccount(t, { username: 'brma', type: 'employee', isEmployeeBrm: true });
    ids.brmB = await createAccount(t, { username: 'brmb', type: 'employee', isEmployeeBrm: true });
    ids.admin = await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    ids.vendor = await createAccount(t, { username: 'vendorone' });
    await createAccount(t, { username: 'plainemployee', type: 'employee' });
    await assignBrm(t, ids.brmA, ids.acme);
    await assignBrm(t, ids.brmB, ids.globex);
    for (const name of ['brma', 'brmb', 'adminone', 'vendorone', 'plainemployee']) {
      clients[name] = await signInAs(t, name);
    }
  });
  beforeEach(async () => {
    await t.ctx.db.deleteFrom('rate_limits').execute();
  });
  afterAll(async () => t?.close());

  it('lists to each BRM only its organizations’ items, and all to an admin', async () => {
    const acmeRequest = await register('list.acme@acme.example');
    const globexRequest = await register('list.globex@globex.example', 'Globex Health IT');
    const a = await listOf('brma');
    expect(a.map((p) => p.requestId)).toContain(acmeRequest);
    expect(a.map((p) => p.requestId)).not.toContain(globexRequest);
    expect((await listOf('brmb')).map((p) => p.requestId)).toEqual(expect.arrayContaining([globexRequest]));
    expect((await listOf('brmb')).map((p) => p.requestId)).not.toContain(acmeRequest);
    expect((await listOf('adminone')).map((p) => p.requestId)).toEqual(
      expect.arrayContaining([acmeRequest, globexRequest]),
    );
    const row = a.find((p) => p.requestId === acmeRequest)!;
    expect(row).toEqual({
      requestId: acmeRequest,
      workItemId: expect.any(String),
      workItemName: 'New Account for list.acme@acme.example',
      type: 'New Account',
      firstname: 'Jane',
      lastname: 'Doe',
      email: 'list.acme@acme.example',
      name: '',
      org: 'Acme Imaging',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      praclaimed: 'false',
      jobTitle: '',
      manager: '',
      description: 'New Account request for PRA - Vendor Access - Acme Imaging - BR',
      comment: 'Self-registration',
      commentAuthor: 'list.acme@acme.example',
      canDecide: true,
      dueAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      dueInDays: 14,
      forwarded: false,
      onBehalfOf: null,
      history: [{ at: row.created, event: 'sent', to: 'Brma Tester' }],
      currentEndsOn: null,
      requestedUntilOn: null,
      accessEnds: {
        defaultDate: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        maxDate: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        accessDays: 180,
      },
    });
    // The rights come from the request policy, per item: every listed item is one the caller decides.
    for (const name of ['brma', 'brmb', 'adminone']) {
      expect((await listOf(name)).every((p) => p.canDecide)).toBe(true);
    }
  });

  it.each([
    ['vendorone', 403, NOT_BRM],
    ['plainemployee', 403, NOT_BRM],
  ])('refuses %s the list and decisions', async (name, status, message) => {
    const requestId = await register(`refused.${name}@acme.example`);
    expect((await clients[name]!.get(LIST)).statusCode).toBe(status);
    const res = await clients[name]!.post(DECIDE, { decision: 'APPROVE', requestId });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ errors: [message] });
  });

  it('answers 401 to an anonymous caller', async () => {
    const requestId = await register('anon.decide@acme.example');
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    expect((await client.get(LIST)).statusCode).toBe(401);
    expect((await client.post(DECIDE, { decision: 'APPROVE', requestId })).statusCode).toBe(401);
  });

  it('approves a registration: account, role, activation code mail and audit, once', async () => {
    const requestId = await register('approve.me@acme.example', 'Acme Imaging', 'Ada', 'Lovelace');
    const res = await clients.brma!.post(DECIDE, { decision: 'APPROVE', requestId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const account = await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', 'approve.me@acme.example')
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({ username: 'alovelace', status: 'pendingActivation', type: 'vendor' });
    const grant = await t.ctx.db
      .selectFrom('role_grants')
      .selectAll()
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(grant).toMatchObject({ organization_id: ids.acme, granted_by: ids.brmA });
    const request = await t.ctx.db
      .selectFrom('requests')
      .selectAll()
      .where('id', '=', requestId)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({ status: 'approved', beneficiary_id: account.id });
    const mails = await outbox(t, 'approve.me@acme.example');
    expect(mails.map((m) => m.template)).toEqual(['registration-received', 'account-approved']);
    expect(mails[1]!.text_body).toContain('/activate-account?code=');
    expect((await listOf('brma')).map((p) => p.requestId)).not.toContain(requestId);
    const again = await clients.adminone!.post(DECIDE, { decision: 'APPROVE', requestId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ errors: [approvalMessages.alreadyDecided] });
  });

  it('gives the next free username to a namesake', async () => {
    const first = await register('jd1@acme.example');
    const second = await register('jd2@acme.example');
    for (const requestId of [first, second]) {
      expect((await clients.brma!.post(DECIDE, { decision: 'APPROVE', requestId })).statusCode).toBe(200);
    }
    const names = await t.ctx.db
      .selectFrom('accounts')
      .select(['username', 'email'])
      .where('email', 'in', ['jd1@acme.example', 'jd2@acme.example'])
      .orderBy('email')
      .execute();
    expect(names.map((n) => n.username)).toEqual(['jdoe', 'jdoe1']);
  });

  it('refuses a BRM of another organization to approve or reject, even bypassing the UI', async () => {
    const requestId = await register('other.org@acme.example');
    const before = await countRows(t, 'accounts');
    for (const body of [
      { decision: 'APPROVE', requestId },
      { decision: 'DENY', requestId, comment: 'no' },
    ]) {
      const res = await clients.brmb!.post(DECIDE, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errors: [approvalMessages.notYourOrganization] });
    }
    expect(await countRows(t, 'accounts')).toBe(before);
    expect((await listOf('brma')).map((p) => p.requestId)).toContain(requestId);
    // Each refusal is audited, though the refused change rolled back.
    const denied = (
      await t.ctx.db.selectFrom('audit_events').selectAll().where('outcome', '=', 'denied').execute()
    )
      .filter((e) => (e.details as { requestId?: string }).requestId === requestId)
      .map((e) => ({
        action: e.action,
        actor: e.actor_id,
        organization: e.organization_id,
        reason: (e.details as { reason?: string }).reason,
      }));
    expect(denied).toEqual([
      { action: 'request.approve', actor: ids.brmB, organization: ids.acme, reason: 'notYourOrganization' },
      { action: 'request.deny', actor: ids.brmB, organization: ids.acme, reason: 'notYourOrganization' },
    ]);
  });

  it('rejects with a justification, mailing it to the registrant', async () => {
    const requestId = await register('deny.me@acme.example');
    const missing = await clients.brma!.post(DECIDE, { decision: 'DENY', requestId, comment: '   ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ errors: ['comment: A justification is required to reject a request'] });
    const res = await clients.brma!.post(DECIDE, {
      decision: 'DENY',
      requestId,
      comment: 'Not one of our engineers',
    });
    expect(res.statusCode).toBe(200);
    const mails = await outbox(t, 'deny.me@acme.example');
    expect(mails.at(-1)).toMatchObject({ template: 'registration-denied' });
    expect(mails.at(-1)!.text_body).toContain('Not one of our engineers');
    const denials = (await auditActions(t, 'request.deny')).filter((e) => e.outcome === 'success');
    expect(denials).toHaveLength(1);
    const status = await clients.brma!.post('/api/user/new/email-in-use', { email: 'deny.me@acme.example' });
    expect(status.json()).toBe('available');
  });

  it('answers 404 to an unknown request and 400 to bad input', async () => {
    const unknown = await clients.adminone!.post(DECIDE, {
      decision: 'APPROVE',
      requestId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ errors: [approvalMessages.requestNotFound] });
    const cases: unknown[] = [
      {},
      { decision: 'APPROVE' },
      { decision: 'MAYBE', requestId: '00000000-0000-4000-8000-000000000000' },
      { decision: 'APPROVE', requestId: 'not-a-uuid' },
      { decision: 'APPROVE', requestId: 42 },
      { decision: 'APPROVE', requestId: '00000000-0000-4000-8000-000000000000', extra: 1 },
      { decision: 'DENY', requestId: '00000000-0000-4000-8000-000000000000', comment: 'x'.repeat(3000) },
    ];
    for (const body of cases) {
      const res = await clients.adminone!.post(DECIDE, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.length).toBeGreaterThan(0);
    }
    const badId = await clients.adminone!.post(DECIDE, { decision: 'APPROVE', requestId: '' });
    expect(badId.json()).toEqual({ errors: [`requestId: ${approvalMessages.noneSelected}`] });
  });

  it('refuses a justification with a line break, a bidi override or over 2000 characters, deciding nothing', async () => {
    const requestId = await register('text.decide@acme.example');
    for (const [comment, error] of [
      ['Denied.\nCall +1 555 0100 to appeal', textFieldMessages.invalidCharacters],
      ['Denied \u202Edeifitsuj', textFieldMessages.invalidCharacters],
      ['x'.repeat(2001), 'Max 2000 characters'],
    ] as const) {
      const res = await clients.brma!.post(DECIDE, { decision: 'DENY', requestId, comment });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: [`comment: ${error}`] });
    }
    expect(await requestStatus(requestId)).toBe('pending');
  });

  it('creates one account, one mail and one audit event when two approve at once (a real race on PostgreSQL)', async () => {
    const requestId = await register('race.approve@acme.example', 'Acme Imaging', 'Race', 'Condition');
    const results = await Promise.all([
      clients.brma!.post(DECIDE, { decision: 'APPROVE', requestId }),
      clients.adminone!.post(DECIDE, { decision: 'APPROVE', requestId }),
      clients.brma!.post(DECIDE, { decision: 'APPROVE', requestId }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const accounts = await t.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'race.approve@acme.example')
      .execute();
    expect(accounts).toHaveLength(1);
    const mails = await outbox(t, 'race.approve@acme.example');
    expect(mails.filter((m) => m.template === 'account-approved')).toHaveLength(1);
    const audits = (await auditActions(t, 'request.approve')).filter(
      (e) => (e.details as { requestId?: string }).requestId === requestId,
    );
    expect(audits).toHaveLength(1);
  });

  it('grants and removes roles for Add Access and Remove Access requests', async () => {
    const add = await t.ctx.db
      .insertInto('requests')
      .values({ type: 'Add Access', status: 'pending', requester_id: ids.vendor, beneficiary_id: ids.vendor })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('request_items')
      .values({
        request_id: add.id,
        organization_id: ids.globex!,
        operation: 'Add',
        status: 'pending',
        expires_at: inTwoWeeks(),
      })
      .execute();
    const row = (await listOf('brmb')).find((p) => p.requestId === add.id)!;
    expect(row).toMatchObject({
      type: 'Add Access',
      name: 'vendorone',
      email: 'vendorone@example.test',
      praclaimed: 'true',
    });
    expect((await clients.brmb!.post(DECIDE, { decision: 'APPROVE', requestId: add.id })).statusCode).toBe(
      200,
    );
    const grants = () =>
      t.ctx.db
        .selectFrom('role_grants')
        .select('organization_id')
        .where('account_id', '=', ids.vendor!)
        .execute();
    expect((await grants()).map((g) => g.organization_id)).toEqual([ids.globex]);
    // The requester hears of the decision.
    expect((await outbox(t, 'vendorone@example.test')).map((m) => m.template)).toEqual(['access-decided']);
    // A vendor's last organization is never removed, so it holds a second one first.
    await t.ctx.db
      .insertInto('role_grants')
      .values({ account_id: ids.vendor!, organization_id: ids.acme! })
      .execute();

    const remove = await t.ctx.db
      .insertInto('requests')
      .values({
        type: 'Remove Access',
        status: 'pending',
        requester_id: ids.vendor,
        beneficiary_id: ids.vendor,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('request_items')
      .values({
        request_id: remove.id,
        organization_id: ids.globex!,
        operation: 'Remove',
        status: 'pending',
        expires_at: inTwoWeeks(),
      })
      .execute();
    expect(
      (await clients.adminone!.post(DECIDE, { decision: 'APPROVE', requestId: remove.id })).statusCode,
    ).toBe(200);
    expect(await grants()).toEqual([{ organization_id: ids.acme }]);
  });
  it('shows an access request for an account not yet activated as not claimed', async () => {
    const pending = await createAccount(t, { username: 'notclaimed', status: 'pendingActivation' });
    const requestId = await addRequest(t, 'Add Access', [[ids.acme!, 'pending']], { beneficiaryId: pending });
    const row = (await listOf('brma')).find((p) => p.requestId === requestId)!;
    expect(row).toMatchObject({ name: 'notclaimed', praclaimed: 'false' });
    expect(
      (await clients.brma!.post(DECIDE, { decision: 'DENY', requestId, comment: 'tidy up' })).statusCode,
    ).toBe(200);
  });

  // PGlite runs one query at a time, so only PostgreSQL lets the two decisions truly overlap.
  it.skipIf(kind !== 'postgres')(
    'settles a request when two people decide its two items at the same time (a real race on PostgreSQL)',
    async () => {
      const vendor = await createAccount(t, { username: 'racevendor' });
      for (let round = 0; round < 5; round += 1) {
        const requestId = await addRequest(
          t,
          'Add Access',
          [
            [ids.acme!, 'pending'],
            [ids.globex!, 'pending'],
          ],
          { beneficiaryId: vendor },
        );
        const results = await Promise.all([
          clients.brma!.post(DECIDE, { decision: 'APPROVE', requestId }),
          clients.brmb!.post(DECIDE, { decision: 'DENY', requestId, comment: 'not for us' }),
        ]);
        expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
        expect(await requestStatus(requestId)).toBe('approved');
        const items = await t.ctx.db
          .selectFrom('request_items')
          .select(['organization_id', 'status'])
          .where('request_id', '=', requestId)
          .execute();
        expect(new Map(items.map((i) => [i.organization_id, i.status]))).toEqual(
          new Map([
            [ids.acme, 'approved'],
            [ids.globex, 'denied'],
          ]),
        );
      }
    },
  );
});

describe('approvals while the identity service is in maintenance', () => {
  it('answers 503 to a decision', async () => {
    const t = await createTestApp('pglite', { IIQ_MAINTENANCE: 'true' });
    try {
      await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
      const admin = await signInAs(t, 'adminone');
      const res = await admin.post(DECIDE, {
        decision: 'APPROVE',
        requestId: '00000000-0000-4000-8000-000000000000',
      });
      expect(res.statusCode).toBe(503);
      expect((await admin.get(LIST)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
