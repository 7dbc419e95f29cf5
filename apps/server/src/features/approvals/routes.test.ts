import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, addRequest } from '../../../test/support/world';

const COUNT_URL = '/api/brm/pending-approvals?getCountOnly=true';
const NOT_BRM = 'Unauthorized: User does not have a BRM role';

describe.each(testDatabaseKinds)('GET /api/brm/pending-approvals?getCountOnly=true on %s', (kind) => {
  let t: TestApp;
  const clients: Record<string, TestClient> = {};
  beforeAll(async () => {
    t = await createTestApp(kind);
    const acme = await addOrganization(t, 'Acme Imaging');
    const globex = await addOrganization(t, 'Globex Health IT');
    const initech = await addOrganization(t, 'Initech Devices');
    const brm = await createAccount(t, { username: 'brmone', type: 'employee', isEmployeeBrm: true });
    const brmTwo = await createAccount(t, { username: 'brmtwo', type: 'employee', isEmployeeBrm: true });
    await createAccount(t, { username: 'brmnone', type: 'employee', isEmployeeBrm: true });
    await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    await createAccount(t, { username: 'plainemployee', type: 'employee' });
    await createAccount(t, { username: 'vendorone' });
    await t.ctx.db
      .insertInto('brm_assignments')
      .values([
        { account_id: brm, organization_id: acme },
        { account_id: brm, organization_id: globex },
        { account_id: brmTwo, organization_id: initech },
      ])
      .execute();

    // Pending items: acme 3, globex 1, initech 3. Decided items must not count.
    await addRequest(t, 'New Account', [[acme, 'pending']]);
    await addRequest(t, 'Add Access', [[acme, 'pending']]);
    await addRequest(t, 'Remove Access', [[acme, 'pending']]);
    await addRequest(t, 'Add Access', [[acme, 'approved']], { status: 'approved' });
    await addRequest(t, 'Add Access', [[acme, 'denied']], { status: 'denied' });
    await addRequest(t, 'Add Access', [[acme, 'cancelled']], { status: 'cancelled' });
    await addRequest(t, 'New Account', [[globex, 'pending']]);
    await addRequest(t, 'Add Access', [[initech, 'pending']]);
    await addRequest(t, 'New Account', [[initech, 'pending']]);
    // One request spanning a managed and an unmanaged organization: only its managed item counts.
    await addRequest(t, 'Add Access', [
      [initech, 'pending'],
      [globex, 'approved'],
    ]);

    for (const name of ['brmone', 'brmtwo', 'brmnone', 'adminone', 'plainemployee', 'vendorone']) {
      clients[name] = await signInAs(t, name);
    }
  });
  afterAll(async () => t?.close());

  it.each([
    ['brmone', 4],
    ['brmtwo', 3],
    ['brmnone', 0],
    ['adminone', 7],
  ])('counts the pending items %s may decide: %i', async (name, count) => {
    const res = await clients[name]!.get(COUNT_URL);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ count });
  });

  it('follows new pending items and decisions', async () => {
    const acme = await t.ctx.db
      .selectFrom('organizations')
      .select('id')
      .where('name', '=', 'Acme Imaging')
      .executeTakeFirstOrThrow();
    await addRequest(t, 'Add Access', [[acme.id, 'pending']]);
    expect((await clients.brmone!.get(COUNT_URL)).json()).toEqual({ count: 5 });
    expect((await clients.brmtwo!.get(COUNT_URL)).json()).toEqual({ count: 3 });
    expect((await clients.adminone!.get(COUNT_URL)).json()).toEqual({ count: 8 });
    await t.ctx.db
      .updateTable('request_items')
      .set({ status: 'approved' })
      .where('organization_id', '=', acme.id)
      .where('status', '=', 'pending')
      .execute();
    expect((await clients.brmone!.get(COUNT_URL)).json()).toEqual({ count: 1 });
    expect((await clients.adminone!.get(COUNT_URL)).json()).toEqual({ count: 4 });
  });

  it.each(['vendorone', 'plainemployee'])('refuses %s with 403 and the BRM message', async (name) => {
    const res = await clients[name]!.get(COUNT_URL);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: [NOT_BRM] });
    const refusals = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'access.role-refused')
      .where('actor_username', '=', name)
      .execute();
    expect(refusals.at(-1)).toMatchObject({
      outcome: 'denied',
      details: { method: 'GET', route: '/api/brm/pending-approvals' },
    });
  });

  it('answers 401 to an anonymous caller', async () => {
    const bare = await t.app.inject({ method: 'GET', url: COUNT_URL, headers: { 'x-pra-api-call': 'true' } });
    expect(bare.statusCode).toBe(401);
    expect(bare.json()).toEqual({ errors: ['You must be signed in to do this.'] });
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const res = await anonymous.get(COUNT_URL);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: ['You must be signed in to do this.'] });
  });

  const expectedTrue = 'getCountOnly: Invalid input: expected "true"';
  it.each([
    ['getCountOnly=false', '/api/brm/pending-approvals?getCountOnly=false', [expectedTrue]],
    ['getCountOnly=TRUE', '/api/brm/pending-approvals?getCountOnly=TRUE', [expectedTrue]],
    ['an empty getCountOnly', '/api/brm/pending-approvals?getCountOnly=', [expectedTrue]],
    ['getCountOnly twice', '/api/brm/pending-approvals?getCountOnly=true&getCountOnly=true', [expectedTrue]],
    [
      'an extra parameter',
      '/api/brm/pending-approvals?getCountOnly=true&username=someoneelse',
      ['Unrecognized key: "username"'],
    ],
    ['only another parameter', '/api/brm/pending-approvals?count=true', ['Unrecognized key: "count"']],
  ])('answers 400 to %s', async (_name, url, errors) => {
    const res = await clients.adminone!.get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors });
  });
});
