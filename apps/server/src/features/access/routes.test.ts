import { accessMessages, roleName, type PendingAccessRequest } from '@pra/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm, auditActions, countRows, outbox } from '../../../test/support/world';

const CURRENT = '/api/vendor/access/current';
const PENDING = '/api/vendor/access/pending';
const ROLES = '/api/vendor/roles';
const REQUEST = '/api/vendor/access/request';
const REMOVE = '/api/vendor/access/current/cancel';
const CANCEL = '/api/vendor/access/pending/cancel';
const DECIDE = '/api/brm/pending-approvals/approve-or-deny';

const ACME = roleName('Acme Imaging');
const GLOBEX = roleName('Globex Health IT');
const INITECH = roleName('Initech Devices');

/** What approval routing adds to each pending item (deadline, reminder; routing.test.ts checks the values). */
const routing = {
  expiresAt: expect.any(String),
  remindedAt: null,
  submittedOn: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
  remindedOn: null,
  expiresOn: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
  requestedUntilOn: null,
};
const inTwoWeeks = () => new Date(Date.now() + 14 * 86_400_000);

describe.each(testDatabaseKinds)('Manage Access calls on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const clients: Record<string, TestClient> = {};

  /** A vendor of the shared domain holding the given organizations' roles. */
  async function vendor(username: string, orgs: string[]): Promise<string> {
    const id = await createAccount(t, { username });
    await t.ctx.db
      .updateTable('accounts')
      .set({ email: `${username}@shared.example` })
      .where('id', '=', id)
      .execute();
    for (const org of orgs) {
      await t.ctx.db
        .insertInto('role_grants')
        .values({ account_id: id, organization_id: ids[org]! })
        .execute();
    }
    clients[username] = await signInAs(t, username);
    return id;
  }
  const held = async (accountId: string) =>
    (
      await t.ctx.db
        .selectFrom('role_grants as g')
        .innerJoin('organizations as o', 'o.id', 'g.organization_id')
        .select('o.name')
        .where('g.account_id', '=', accountId)
        .orderBy('o.name')
        .execute()
    ).map((r) => r.name);
  const pendingOf = async (client: TestClient, username: string) =>
    (await client.get(`${PENDING}?username=${username}`)).json<PendingAccessRequest[]>();

  beforeAll(async () => {
    t = await createTestApp(kind);
    ids.acme = await addOrganization(t, 'Acme Imaging', ['shared.example']);
    ids.globex = await addOrganization(t, 'Globex Health IT', ['shared.example']);
    ids.initech = await addOrganization(t, 'Initech Devices', ['initech.example']);
    ids.brmA = await createAccount(t, { username: 'brma', type: 'employee', isEmployeeBrm: true });
    ids.brmG = await createAccount(t, { username: 'brmg', type: 'employee', isEmployeeBrm: true });
    ids.admin = await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    await createAccount(t, { username: 'plainemployee', type: 'employee' });
    await assignBrm(t, ids.brmA, ids.acme);
    await assignBrm(t, ids.brmG, ids.globex);
    for (const name of ['brma', 'brmg', 'adminone', 'plainemployee']) clients[name] = await signInAs(t, name);
  });
  beforeEach(async () => {
    await t.ctx.db.deleteFrom('rate_limits').execute();
  });
  afterAll(async () => t?.close());

  it('lists a vendor its current roles, pending requests and the roles of its domain it may request', async () => {
    await vendor('lister', ['acme']);
    const c = clients.lister!;
    expect((await c.get(`${CURRENT}?username=lister`)).json()).toMatchObject([
      { name: ACME, display: 'Acme Imaging' },
    ]);
    expect(await pendingOf(c, 'lister')).toEqual([]);
    expect((await c.get(`${ROLES}?username=lister`)).json()).toEqual([
      { displayableName: 'Globex Health IT', name: GLOBEX },
    ]);
    // showAll is an admin's option only.
    expect((await c.get(`${ROLES}?username=lister&showAll=true`)).json()).toHaveLength(1);
    expect((await clients.adminone!.get(`${ROLES}?username=lister&showAll=true`)).json()).toEqual([
      { displayableName: 'Globex Health IT', name: GLOBEX },
      { displayableName: 'Initech Devices', name: INITECH },
    ]);
  });

  it('turns a vendor request into one pending item per role, mails each organization’s BRMs, and the BRMs decide', async () => {
    const id = await vendor('requester', ['initech']);
    const c = clients.requester!;
    const res = await c.post(REQUEST, {
      selectedNames: [ACME, GLOBEX],
      justification: 'Support contract',
      beneficiaryUsername: 'requester',
      beneficiaryEmail: 'requester@shared.example',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ errors: [], successes: ['Acme Imaging', 'Globex Health IT'] });
    const pending = await pendingOf(c, 'requester');
    expect(pending).toEqual([
      {
        id: expect.any(String),
        items: [
          { display: 'Acme Imaging', owner: 'requester', operation: 'Add', ...routing },
          { display: 'Globex Health IT', owner: 'requester', operation: 'Add', ...routing },
        ],
      },
    ]);
    expect((await c.get(`${ROLES}?username=requester`)).json()).toEqual([]);
    expect((await outbox(t, 'brma@example.test')).map((m) => m.template)).toContain(
      'access-awaiting-decision',
    );
    expect((await outbox(t, 'brmg@example.test')).map((m) => m.template)).toContain(
      'access-awaiting-decision',
    );

    const requestId = pending[0]!.id;
    expect((await clients.brma!.post(DECIDE, { decision: 'APPROVE', requestId })).statusCode).toBe(200);
    expect(
      (await clients.brmg!.post(DECIDE, { decision: 'DENY', requestId, comment: 'No contract with us' }))
        .statusCode,
    ).toBe(200);
    expect(await held(id)).toEqual(['Acme Imaging', 'Initech Devices']);
    const mails = (await outbox(t, 'requester@shared.example')).filter(
      (m) => m.template === 'access-decided',
    );
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringContaining('Add Access request approved'),
      expect.stringContaining('Add Access request denied'),
    ]);
    expect(mails[1]!.text_body).toContain('No contract with us');
  });

  it('turns a vendor removal into a pending Remove Access item a BRM approves; the last role is refused', async () => {
    const id = await vendor('remover', ['acme', 'globex']);
    const c = clients.remover!;
    const res = await c.post(REMOVE, {
      selectedNames: [ACME],
      justification: 'No longer needed',
      beneficiaryUsername: 'remover',
    });
    expect(res.json()).toEqual({ errors: [], successes: ['Acme Imaging'] });
    // With Acme's removal pending, removing Globex too would leave nothing.
    const last = await c.post(REMOVE, {
      selectedNames: [GLOBEX],
      justification: 'x',
      beneficiaryUsername: 'remover',
    });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ errors: [accessMessages.lastRoleVendor] });
    const [request] = await pendingOf(c, 'remover');
    expect(request!.items).toEqual([
      { display: 'Acme Imaging', owner: 'remover', operation: 'Remove', ...routing },
    ]);
    expect(
      (await clients.brma!.post(DECIDE, { decision: 'APPROVE', requestId: request!.id })).statusCode,
    ).toBe(200);
    expect(await held(id)).toEqual(['Globex Health IT']);
  });

  it('refuses to approve a Remove Access that would take the last role; the item stays pending', async () => {
    const id = await vendor('lastone', ['acme']);
    const { id: requestId } = await t.ctx.db
      .insertInto('requests')
      .values({ type: 'Remove Access', status: 'pending', requester_id: id, beneficiary_id: id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('request_items')
      .values({
        request_id: requestId,
        organization_id: ids.acme!,
        operation: 'Remove',
        status: 'pending',
        expires_at: inTwoWeeks(),
      })
      .execute();
    const res = await clients.brma!.post(DECIDE, { decision: 'APPROVE', requestId });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ errors: [accessMessages.lastRoleManager] });
    expect(await held(id)).toEqual(['Acme Imaging']);
    expect((await pendingOf(clients.lastone!, 'lastone'))[0]!.items).toHaveLength(1);
  });

  it('lets a vendor cancel its pending request with a reason', async () => {
    await vendor('canceller', ['initech']);
    const c = clients.canceller!;
    await c.post(REQUEST, {
      selectedNames: [ACME],
      justification: 'Please',
      beneficiaryUsername: 'canceller',
    });
    const [request] = await pendingOf(c, 'canceller');
    const empty = await c.post(CANCEL, { requestId: request!.id, reason: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ errors: ['reason: Required'] });
    // Another vendor cannot see or cancel it.
    await vendor('nosy', ['initech']);
    expect(
      (await clients.nosy!.post(CANCEL, { requestId: request!.id, reason: 'mine now' })).statusCode,
    ).toBe(404);
    const res = await c.post(CANCEL, { requestId: request!.id, reason: 'Asked by mistake' });
    expect(res.statusCode).toBe(200);
    expect(await pendingOf(c, 'canceller')).toEqual([]);
    const row = await t.ctx.db
      .selectFrom('request_items')
      .select(['status', 'decision_comment'])
      .where('request_id', '=', request!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'cancelled', decision_comment: 'Asked by mistake' });
    expect((await c.post(CANCEL, { requestId: request!.id, reason: 'again' })).statusCode).toBe(404);
  });

  it('lets a BRM change its vendor’s roles at once in its organizations only, mailing the vendor', async () => {
    // brma also manages Hooli (the vendor's domain) and Umbrella (another domain).
    const hooli = await addOrganization(t, 'Hooli Health', ['shared.example']);
    const umbrella = await addOrganization(t, 'Umbrella Labs', ['umbrella.example']);
    await assignBrm(t, ids.brmA!, hooli);
    await assignBrm(t, ids.brmA!, umbrella);
    const HOOLI = roleName('Hooli Health');
    const UMBRELLA = roleName('Umbrella Labs');
    const id = await vendor('managed', ['acme', 'globex']);
    const add = await clients.brma!.post(REQUEST, {
      selectedNames: [HOOLI],
      justification: 'Onboarding',
      beneficiaryUsername: 'managed',
      beneficiaryEmail: 'managed@shared.example',
    });
    expect(add.json()).toEqual({ errors: [], successes: ['Hooli Health'] });
    expect(await held(id)).toEqual(['Acme Imaging', 'Globex Health IT', 'Hooli Health']);
    expect((await outbox(t, 'managed@shared.example')).map((m) => m.template)).toContain('access-changed');

    // Outside its organizations: 403, audited, nothing changes.
    const before = await countRows(t, 'requests');
    const outside = await clients.brma!.post(REMOVE, {
      selectedNames: [GLOBEX],
      justification: 'Not mine',
      beneficiaryUsername: 'managed',
    });
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toEqual({ errors: [accessMessages.notManaged('Globex Health IT')] });
    const grantOutside = await clients.brma!.post(REQUEST, {
      selectedNames: [INITECH],
      justification: 'x',
      beneficiaryUsername: 'managed',
    });
    expect(grantOutside.statusCode).toBe(403);
    expect(grantOutside.json()).toEqual({ errors: [accessMessages.notManaged('Initech Devices')] });
    // Its own organization of another email domain: 400, audited as well.
    const otherDomain = await clients.brma!.post(REQUEST, {
      selectedNames: [UMBRELLA],
      justification: 'x',
      beneficiaryUsername: 'managed',
    });
    expect(otherDomain.statusCode).toBe(400);
    expect(otherDomain.json()).toEqual({ errors: [accessMessages.otherDomain('Umbrella Labs')] });
    expect(await countRows(t, 'requests')).toBe(before);
    const denied = (await auditActions(t, 'access.remove')).filter((e) => e.outcome === 'denied');
    expect(denied.map((e) => e.actor_id)).toContain(ids.brmA);
    const deniedAdds = (await auditActions(t, 'access.add')).filter(
      (e) => e.outcome === 'denied' && e.target_id === id,
    );
    expect(deniedAdds.map((e) => [e.organization_id, (e.details as { reason: string }).reason])).toEqual([
      [ids.initech, 'notYourOrganization'],
      [umbrella, 'otherDomain'],
    ]);

    // A BRM sees only its organizations' roles of the user.
    expect((await clients.brma!.get(`${CURRENT}?username=managed`)).json()).toMatchObject([
      { name: ACME, display: 'Acme Imaging' },
      { name: HOOLI, display: 'Hooli Health' },
    ]);
    const remove = await clients.brma!.post(REMOVE, {
      selectedNames: [ACME, HOOLI],
      justification: 'Offboarding',
      beneficiaryUsername: 'managed',
    });
    expect(remove.json()).toEqual({ errors: [], successes: ['Acme Imaging', 'Hooli Health'] });
    // No longer its vendor: adding a role back is the vendor's request to make.
    const back = await clients.brma!.post(REQUEST, {
      selectedNames: [ACME],
      justification: 'Again',
      beneficiaryUsername: 'managed',
    });
    expect(back.statusCode).toBe(404);
    expect(back.json()).toEqual({ errors: [accessMessages.userNotFound] });
    const last = await clients.brmg!.post(REMOVE, {
      selectedNames: [GLOBEX],
      justification: 'Offboarding',
      beneficiaryUsername: 'managed',
    });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ errors: [accessMessages.lastRoleManager] });
    expect(await held(id)).toEqual(['Globex Health IT']);
  });

  it('lets an admin grant any active organization’s role; a BRM cannot add a role to a vendor it does not manage', async () => {
    const id = await vendor('admined', ['acme']);
    const res = await clients.adminone!.post(REQUEST, {
      selectedNames: [INITECH],
      justification: 'Exception approved',
      beneficiaryUsername: 'admined',
    });
    expect(res.json()).toEqual({ errors: [], successes: ['Initech Devices'] });
    await t.ctx.db
      .deleteFrom('role_grants')
      .where('account_id', '=', id)
      .where('organization_id', '=', ids.acme!)
      .execute();
    // brmg manages Globex, which owns the vendor's domain, but the vendor is not one of its own.
    const notManaged = await clients.brmg!.post(REQUEST, {
      selectedNames: [GLOBEX],
      justification: 'x',
      beneficiaryUsername: 'admined',
    });
    expect(notManaged.statusCode).toBe(404);
    expect(notManaged.json()).toEqual({ errors: [accessMessages.userNotFound] });
    expect(await held(id)).toEqual(['Initech Devices']);
    expect(
      (await auditActions(t, 'access.add')).some(
        (e) => e.outcome === 'denied' && e.actor_id === ids.brmG && e.target_id === id,
      ),
    ).toBe(true);
  });

  it('answers partial success when one of the roles was requested meanwhile', async () => {
    await vendor('partial', []);
    const c = clients.partial!;
    await c.post(REQUEST, { selectedNames: [ACME], justification: 'first', beneficiaryUsername: 'partial' });
    const res = await c.post(REQUEST, {
      selectedNames: [ACME, GLOBEX],
      justification: 'second',
      beneficiaryUsername: 'partial',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ errors: ['Acme Imaging'], successes: ['Globex Health IT'] });
    const all = await c.post(REQUEST, {
      selectedNames: [ACME],
      justification: 'third',
      beneficiaryUsername: 'partial',
    });
    expect(all.statusCode).toBe(409);
    expect(all.json()).toEqual({ errors: [accessMessages.alreadyPending('Acme Imaging')] });
  });

  it('refuses bad input with 400 and clear messages, writing nothing', async () => {
    await vendor('badinput', []);
    const c = clients.badinput!;
    const before = await countRows(t, 'requests');
    const cases: [unknown, string[]][] = [
      [
        { selectedNames: [ACME], justification: '  ', beneficiaryUsername: 'badinput' },
        ['justification: Required'],
      ],
      [
        {
          selectedNames: ['PRA - Vendor Access - Nowhere - BR'],
          justification: 'x',
          beneficiaryUsername: 'badinput',
        },
        [accessMessages.unknownRole('PRA - Vendor Access - Nowhere - BR')],
      ],
      [
        { selectedNames: ['Acme Imaging'], justification: 'x', beneficiaryUsername: 'badinput' },
        [accessMessages.unknownRole('Acme Imaging')],
      ],
      [
        { selectedNames: [INITECH], justification: 'x', beneficiaryUsername: 'badinput' },
        [accessMessages.otherDomain('Initech Devices')],
      ],
      [
        { selectedNames: [], justification: 'x', beneficiaryUsername: 'badinput' },
        ['selectedNames: Select at least one role'],
      ],
      [
        { selectedNames: [ACME], justification: 'line\nbreak', beneficiaryUsername: 'badinput' },
        ['justification: Line breaks, tabs and invisible formatting characters are not allowed'],
      ],
      [
        {
          selectedNames: [ACME],
          justification: 'x',
          beneficiaryUsername: 'badinput',
          beneficiaryEmail: 'a@b.example',
        },
        [accessMessages.emailMismatch],
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await c.post(REQUEST, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ errors });
    }
    const removeNotHeld = await c.post(REMOVE, {
      selectedNames: [ACME],
      justification: 'x',
      beneficiaryUsername: 'badinput',
    });
    expect(removeNotHeld.statusCode).toBe(400);
    expect((await c.post(CANCEL, { requestId: 'nope', reason: 'x' })).statusCode).toBe(400);
    expect(await countRows(t, 'requests')).toBe(before);
  });

  describe('every role against every call', () => {
    const reads = [CURRENT, PENDING, ROLES];
    const body = (username: string) => ({
      selectedNames: [ACME],
      justification: 'x',
      beneficiaryUsername: username,
    });

    it('answers 401 to an anonymous caller', async () => {
      const anon = new TestClient(t.app);
      await anon.fetchCsrf();
      for (const path of reads) expect((await anon.get(`${path}?username=x`)).statusCode).toBe(401);
      expect((await anon.post(REQUEST, body('x'))).statusCode).toBe(401);
      expect((await anon.post(REMOVE, body('x'))).statusCode).toBe(401);
      expect((await anon.post(CANCEL, { requestId: ids.acme, reason: 'x' })).statusCode).toBe(401);
    });

    it('refuses a vendor acting for another user with 403, audited', async () => {
      await vendor('victim', ['acme', 'globex']);
      await vendor('intruder', ['acme']);
      const c = clients.intruder!;
      for (const path of reads) {
        const res = await c.get(`${path}?username=victim`);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ errors: [accessMessages.onlyOwnAccess] });
      }
      expect((await c.post(REQUEST, body('victim'))).statusCode).toBe(403);
      expect((await c.post(REMOVE, body('victim'))).statusCode).toBe(403);
      const denied = (await auditActions(t, 'access.add')).filter((e) => e.outcome === 'denied');
      expect(denied.some((e) => e.actor_username === 'intruder')).toBe(true);
    });

    it('refuses an employee who is neither BRM nor admin', async () => {
      const c = clients.plainemployee!;
      for (const path of reads) expect((await c.get(`${path}?username=victim`)).statusCode).toBe(403);
      expect((await c.post(REQUEST, body('victim'))).statusCode).toBe(403);
    });

    it('answers 404 to a BRM or admin naming someone who is not a vendor', async () => {
      for (const name of ['brma', 'adminone']) {
        expect((await clients[name]!.get(`${CURRENT}?username=brmg`)).statusCode).toBe(404);
        expect((await clients[name]!.post(REQUEST, body('nobody'))).statusCode).toBe(404);
      }
    });

    it('answers a BRM naming a vendor outside its organizations exactly as an unknown username, audited', async () => {
      // A vendor of the shared domain holding only Globex: not brma's, though brma's Acme owns the domain.
      const strangerId = await vendor('stranger', ['globex']);
      const c = clients.brma!;
      const calls: [string, (name: string) => Promise<{ statusCode: number; body: string }>][] = [
        ...reads.map(
          (path) => [path, (name: string) => c.get(`${path}?username=${name}`)] as [string, typeof c.get],
        ),
        [REQUEST, (name: string) => c.post(REQUEST, body(name))],
        [REMOVE, (name: string) => c.post(REMOVE, { ...body(name), selectedNames: [GLOBEX] })],
      ];
      const audits = await countRows(t, 'audit_events');
      for (const [path, call] of calls) {
        const stranger = await call('stranger');
        const unknown = await call('nosuchvendor');
        expect(stranger.statusCode, path).toBe(404);
        expect([stranger.statusCode, stranger.body], path).toEqual([unknown.statusCode, unknown.body]);
      }
      expect(await held(strangerId)).toEqual(['Globex Health IT']);
      const denied = await t.ctx.db
        .selectFrom('audit_events')
        .select(['action', 'outcome', 'target_id'])
        .where('actor_id', '=', ids.brmA!)
        .where('target_username', '=', 'stranger')
        .execute();
      expect(denied.map((e) => e.action).sort()).toEqual([
        'access.add',
        'access.remove',
        'access.view',
        'access.view',
        'access.view',
      ]);
      expect(denied.every((e) => e.outcome === 'denied' && e.target_id === strangerId)).toBe(true);
      // The unknown names are audited too (10 calls, 10 rows).
      expect((await countRows(t, 'audit_events')) - audits).toBe(10);
    });

    it('lets BRM and admin read a vendor’s access (limited to managed organizations for a BRM)', async () => {
      expect((await clients.brma!.get(`${CURRENT}?username=victim`)).json()).toMatchObject([
        { name: ACME, display: 'Acme Imaging' },
      ]);
      expect((await clients.adminone!.get(`${CURRENT}?username=victim`)).json()).toHaveLength(2);
      expect((await clients.brmg!.get(`${ROLES}?username=victim`)).json()).toEqual([]);
    });

    it('lets a BRM cancel pending items of its organizations only', async () => {
      await vendor('pendingone', []);
      await clients.pendingone!.post(REQUEST, {
        selectedNames: [GLOBEX],
        justification: 'x',
        beneficiaryUsername: 'pendingone',
      });
      const [request] = await pendingOf(clients.pendingone!, 'pendingone');
      const refused = await clients.brma!.post(CANCEL, { requestId: request!.id, reason: 'not yours' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ errors: [accessMessages.noAccess] });
      expect((await clients.brmg!.post(CANCEL, { requestId: request!.id, reason: 'tidy' })).statusCode).toBe(
        200,
      );
      // Both audit rows name the vendor whose request it was.
      const cancels = (await auditActions(t, 'access.cancel')).filter(
        (e) => e.details.requestId === request!.id,
      );
      expect(cancels.map((e) => [e.outcome, e.target_username]).sort()).toEqual([
        ['denied', 'pendingone'],
        ['success', 'pendingone'],
      ]);
    });
  });
});

describe('Manage Access while the identity service is in maintenance', () => {
  it('answers 503 to every change and still lists', async () => {
    const t = await createTestApp('pglite', { IIQ_MAINTENANCE: 'true' });
    try {
      await createAccount(t, { username: 'vendorone' });
      const c = await signInAs(t, 'vendorone');
      const body = { selectedNames: [ACME], justification: 'x', beneficiaryUsername: 'vendorone' };
      expect((await c.post(REQUEST, body)).statusCode).toBe(503);
      expect((await c.post(REMOVE, body)).statusCode).toBe(503);
      expect(
        (await c.post(CANCEL, { requestId: '00000000-0000-4000-8000-000000000000', reason: 'x' })).statusCode,
      ).toBe(503);
      expect((await c.get(`${CURRENT}?username=vendorone`)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
