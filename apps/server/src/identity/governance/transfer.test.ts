import * as admin from '@pra/contracts/endpoints/administration';
import { getPendingApprovals } from '@pra/contracts/endpoints/approvals';
import * as departure from '@pra/contracts/endpoints/departure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { callWithToken, createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, addRequest, auditActions, outbox } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { mayDecide } from '../../store/reviews';
import { localInstant } from '../../platform/local-time';
import { sweepNow } from './sweeper';

const ZONE = 'America/New_York';
const morningOf = (date: string) => localInstant(date, { hour: 10, minute: 0, second: 0 }, ZONE);

describe.each(testDatabaseKinds)('BRM departure on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(morningOf('2027-06-01'));
  const sweep = () => sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  const ids: Record<string, string> = {};
  const clients: Record<string, TestClient> = {};

  async function brm(username: string, orgs: [string, 'primary' | 'backup'][]) {
    ids[username] = await createAccount(t, { username, type: 'employee', isEmployeeBrm: true });
    if (orgs.length)
      await t.ctx.db
        .insertInto('brm_assignments')
        .values(orgs.map(([org, kind]) => ({ account_id: ids[username]!, organization_id: ids[org]!, kind })))
        .execute();
  }
  async function vendorOf(username: string, org: string, sponsor: string) {
    ids[username] = await createAccount(t, { username });
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: ids[username],
        organization_id: ids[org]!,
        granted_by: ids[sponsor]!,
        sponsor_id: ids[sponsor]!,
        request_item_id: null,
        expires_at: new Date(clock.now().getTime() + 100 * 86_400_000),
      })
      .execute();
  }
  /** An open campaign of `org` with one item per vendor in the state given. */
  async function openReview(org: string, items: [string, 'pending' | 'kept'][]) {
    const db = t.ctx.db;
    const now = clock.now();
    const cycle = await db
      .insertInto('review_cycles')
      .values({
        name: 'Q2',
        default_action: 'keep',
        vendor_confirmation: false,
        opens_at: now,
        due_at: new Date(now.getTime() + 14 * 86_400_000),
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const campaign = await db
      .insertInto('review_campaigns')
      .values({ cycle_id: cycle.id, organization_id: ids[org]!, status: 'open', opened_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('review_items')
      .values(
        items.map(([vendor, status]) => ({
          campaign_id: campaign.id,
          account_id: ids[vendor]!,
          organization_id: ids[org]!,
          granted_at: now,
          expires_at: new Date(now.getTime() + 100 * 86_400_000),
          status,
        })),
      )
      .execute();
    return campaign.id;
  }
  const plan = (client: TestClient, who: string, dryRun: boolean, extra: object = {}) =>
    client.call(departure.transferResponsibilities, {
      params: { id: ids[who]! },
      body: { dryRun, ...extra },
    });

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    ids.beta = await addOrganization(t, 'Beta Labs', ['beta.example']);
    ids.gamma = await addOrganization(t, 'Gamma Works', ['gamma.example']);
    await brm('lena', [
      ['acme', 'primary'],
      ['beta', 'primary'],
    ]);
    await brm('bob', [['acme', 'backup']]);
    await brm('omar', [['gamma', 'primary']]);
    await brm('dele', []);
    ids.ada = await createAccount(t, { username: 'ada', type: 'employee', isAdmin: true });
    ids.alan = await createAccount(t, { username: 'alan', type: 'employee', isAdmin: true });
    ids.audrey = await createAccount(t, { username: 'audrey', type: 'employee', isAdmin: true });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', ids.audrey).execute();
    await vendorOf('vic', 'acme', 'lena');
    await vendorOf('val', 'beta', 'lena');
    // Lena's delegation to Dele (a delegate).
    await t.ctx.db
      .insertInto('brm_delegations')
      .values({
        delegator_id: ids.lena!,
        delegate_id: ids.dele!,
        starts_at: clock.now(),
        ends_at: new Date(clock.now().getTime() + 20 * 86_400_000),
      })
      .execute();
    for (const name of ['ada', 'alan', 'audrey', 'lena', 'bob', 'omar', 'dele', 'vic'])
      clients[name] = await signInAs(t, name);
    clients.anonymous = new TestClient(t.app);
    await clients.anonymous.fetchCsrf();
  });
  afterAll(async () => t?.close());

  it('answers every new call by role: only admins change, the auditor reads, the vendor reads its sponsors', async () => {
    const calls = {
      leaving: (c: TestClient) =>
        c.call(departure.setLeaving, { params: { id: ids.omar! }, body: { leavingOn: '2027-12-01' } }),
      transfer: (c: TestClient) => plan(c, 'omar', true),
      sponsorship: (c: TestClient) => c.call(departure.getSponsorship),
      assign: (c: TestClient) =>
        c.call(departure.assignSponsor, {
          body: { sponsorId: ids.omar!, grants: [{ accountId: ids.vic!, organizationId: ids.acme! }] },
        }),
      mine: (c: TestClient) => c.call(departure.getMySponsors),
    };
    const expected: Record<string, Record<keyof typeof calls, number>> = {
      vic: { leaving: 403, transfer: 403, sponsorship: 403, assign: 403, mine: 200 },
      lena: { leaving: 403, transfer: 403, sponsorship: 403, assign: 403, mine: 403 }, // BRM of the organization
      omar: { leaving: 403, transfer: 403, sponsorship: 403, assign: 403, mine: 403 }, // BRM of another
      bob: { leaving: 403, transfer: 403, sponsorship: 403, assign: 403, mine: 403 }, // backup BRM
      dele: { leaving: 403, transfer: 403, sponsorship: 403, assign: 403, mine: 403 }, // delegate
      audrey: { leaving: 403, transfer: 403, sponsorship: 200, assign: 403, mine: 403 }, // auditor
      anonymous: { leaving: 401, transfer: 401, sponsorship: 401, assign: 401, mine: 401 },
      ada: { leaving: 200, transfer: 200, sponsorship: 200, assign: 400, mine: 403 }, // admin
    };
    for (const [who, row] of Object.entries(expected)) {
      for (const [name, call] of Object.entries(calls)) {
        const res = await call(clients[who]!);
        expect(res.statusCode, `${who} ${name}: ${res.body}`).toBe(row[name as keyof typeof calls]);
      }
    }
    // The admin's 400: Omar does not manage Acme, so he cannot sponsor its grant.
    expect((await calls.assign(clients.ada!)).json()).toEqual({
      errors: ['The sponsor must be an active BRM of each organization chosen.'],
    });
    expect((await calls.mine(clients.vic!)).json()).toEqual({
      sponsors: [{ organization: 'Acme Imaging', name: 'Lena Tester', email: 'lena@example.test' }],
    });
    await clients.ada!.call(departure.setLeaving, { params: { id: ids.omar! }, body: { leavingOn: null } });

    // Service tokens: people:write transfers, people:read reads the report only.
    const token = async (scopes: ('people:read' | 'people:write')[]) =>
      (
        await clients.ada!.call(admin.createServiceToken, {
          body: {
            name: `t ${scopes.join()}`,
            scopes,
            expiresAt: new Date(clock.now().getTime() + 86_400_000 * 5).toISOString(),
          },
        })
      ).json().token;
    const writer = await token(['people:write']);
    const reader = await token(['people:read']);
    expect(
      (
        await callWithToken(t.app, departure.transferResponsibilities, writer, {
          params: { id: ids.omar! },
          body: { dryRun: true },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await callWithToken(t.app, departure.transferResponsibilities, reader, {
          params: { id: ids.omar! },
          body: { dryRun: true },
        })
      ).statusCode,
    ).toBe(403);
    expect((await callWithToken(t.app, departure.getSponsorship, reader)).statusCode).toBe(200);
    expect((await callWithToken(t.app, departure.getMySponsors, writer)).statusCode).toBe(403);
  });

  it('previews the transfer, refuses a leaving successor, and the result equals the preview; the successor sees the moved approval', async () => {
    const requestId = await addRequest(t, 'Add Access', [[ids.beta!, 'pending']], { beneficiaryId: ids.val });
    void requestId;
    // An open access review of Beta: Val's item undecided (Lena decides it), Vic's decided.
    const campaignId = await openReview('beta', [
      ['val', 'pending'],
      ['vic', 'kept'],
    ]);
    await clients.ada!.call(departure.setLeaving, {
      params: { id: ids.lena! },
      body: { leavingOn: '2027-06-20' },
    });
    expect((await auditActions(t, 'person.leaving')).filter((e) => e.target_id === ids.lena)).toMatchObject([
      { actor_username: 'ada', details: { leavingOn: '2027-06-20' } },
    ]);
    // Omar leaves too: choosing him is refused.
    await clients.ada!.call(departure.setLeaving, {
      params: { id: ids.omar! },
      body: { leavingOn: '2027-07-01' },
    });
    const refused = await plan(clients.ada!, 'lena', true, {
      successors: [{ organizationId: ids.beta!, successorId: ids.omar!, makePrimary: true }],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ errors: string[] }>().errors).toEqual([
      'Omar Tester is leaving on 2027-07-01; choose another successor',
    ]);

    const choice = { successors: [{ organizationId: ids.beta!, successorId: ids.dele!, makePrimary: true }] };
    const preview = await plan(clients.ada!, 'lena', true, choice);
    expect(preview.statusCode, preview.body).toBe(200);
    const shown = preview.json();
    expect(shown).toMatchObject({
      dryRun: true,
      pendingApprovals: 1,
      extensionRequests: 0,
      openReviewItems: 1,
      delegations: 1,
      vendors: 2,
      organizations: [
        { organization: 'Acme Imaging', successor: 'Bob Tester', vendors: 1, pendingApprovals: 0 },
        {
          organization: 'Beta Labs',
          successor: 'Dele Tester',
          vendors: 1,
          pendingApprovals: 1,
          openReviewItems: 1,
        },
      ],
    });
    // Nothing moved yet.
    expect(
      await t.ctx.db.selectFrom('brm_assignments').selectAll().where('account_id', '=', ids.lena!).execute(),
    ).toHaveLength(2);

    // Two admins at once: one transfers, the other finds nothing left (409), nothing twice.
    const [first, second] = await Promise.all([
      plan(clients.ada!, 'lena', false, choice),
      plan(clients.alan!, 'lena', false, choice),
    ]);
    const codes = [first.statusCode, second.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const done = (first.statusCode === 200 ? first : second).json();
    expect({ ...done, dryRun: true }).toEqual(shown);
    expect(await auditActions(t, 'brm.transfer')).toHaveLength(1);

    // The successor sees the moved approval; Lena manages nothing; the delegation ended.
    const approvals = await clients.dele!.call(getPendingApprovals);
    expect(approvals.statusCode).toBe(200);
    expect(approvals.body).toContain('val');
    // The open review item moved with the assignment: Dele decides it now, Lena no longer.
    expect(await mayDecide(t.ctx.db, campaignId, ids.dele!, false, clock.now())).toBe(true);
    expect(await mayDecide(t.ctx.db, campaignId, ids.lena!, false, clock.now())).toBe(false);
    expect(
      await t.ctx.db.selectFrom('brm_assignments').selectAll().where('account_id', '=', ids.lena!).execute(),
    ).toEqual([]);
    expect(
      await t.ctx.db
        .selectFrom('brm_assignments')
        .select(['account_id', 'kind'])
        .where('organization_id', '=', ids.acme!)
        .execute(),
    ).toEqual([{ account_id: ids.bob, kind: 'primary' }]);
    const delegation = await t.ctx.db
      .selectFrom('brm_delegations')
      .selectAll()
      .where('delegator_id', '=', ids.lena!)
      .executeTakeFirstOrThrow();
    expect(delegation.end_reason).toBe('transfer');
    // Vendors told (T2), successors told (T1), sponsors changed with an audit event each.
    expect((await outbox(t, 'vic@example.test')).map((m) => m.subject)).toContain(
      'Your sponsor for Acme Imaging is now Bob Tester',
    );
    expect((await outbox(t, 'dele@example.test')).map((m) => m.subject)).toContain(
      `You are now responsible for Beta Labs at ${t.ctx.config.HOSPITAL_NAME}`,
    );
    expect((await auditActions(t, 'sponsor.change')).map((e) => e.target_id).sort()).toEqual(
      [ids.val, ids.vic].sort(),
    );
    expect((await clients.vic!.call(departure.getMySponsors)).json()).toEqual({
      sponsors: [{ organization: 'Acme Imaging', name: 'Bob Tester', email: 'bob@example.test' }],
    });
  });

  it('transfers automatically on the leaving date when nobody did, after reminding InfoSec, then ends the BRM role when asked', async () => {
    // Omar leaves on 2027-07-01 with Gamma and nothing transferred: InfoSec (no backup) takes it.
    await vendorOf('gus', 'gamma', 'omar');
    // Kim leaves on 2027-06-25 too, managing nothing, and keeps the BRM role (asked so).
    await brm('kim', []);
    await clients.ada!.call(departure.setLeaving, {
      params: { id: ids.kim! },
      body: { leavingOn: '2027-06-25', endsRole: false },
    });
    const isBrm = async (who: string) =>
      (
        await t.ctx.db
          .selectFrom('accounts')
          .select('is_employee_brm')
          .where('id', '=', ids[who]!)
          .executeTakeFirstOrThrow()
      ).is_employee_brm;
    clock.set(morningOf('2027-06-17'));
    await sweep();
    // Lena's responsibilities moved on 2027-06-01; her role ends on her date (2027-06-20), not before.
    expect(await isBrm('lena')).toBe(true);
    const infosec = async () =>
      (await outbox(t)).filter(
        (m) => m.template === 'brm-leaving' || m.template === 'brm-transfer-automatic',
      );
    expect((await infosec()).map((m) => m.subject)).toContain(
      'Omar Tester leaves on 2027-07-01: responsibilities not yet transferred',
    );
    clock.set(morningOf('2027-06-30'));
    await sweep();
    expect(await isBrm('lena')).toBe(false);
    expect(await isBrm('kim')).toBe(true);
    expect(await isBrm('omar')).toBe(true);
    expect(
      await t.ctx.db.selectFrom('brm_assignments').selectAll().where('account_id', '=', ids.omar!).execute(),
    ).toHaveLength(1);
    clock.set(morningOf('2027-07-01'));
    await sweep();
    await sweep();
    expect(
      await t.ctx.db.selectFrom('brm_assignments').selectAll().where('account_id', '=', ids.omar!).execute(),
    ).toEqual([]);
    const events = (await auditActions(t, 'brm.transfer')).filter((e) => e.target_id === ids.omar);
    expect(events).toMatchObject([{ actor_username: 'system', details: { automatic: true, vendors: 1 } }]);
    // After the automatic transfer, the same sweep ended Omar's BRM role, audited once.
    expect(await isBrm('omar')).toBe(false);
    const ended = (await auditActions(t, 'person.change')).filter(
      (e) => e.actor_username === 'system' && (e.target_id === ids.omar || e.target_id === ids.lena),
    );
    expect(ended.map((e) => [e.target_id, e.details]).sort()).toEqual(
      [
        [ids.lena, { is_employee_brm: false, cause: 'leaving', leavingOn: '2027-06-20' }],
        [ids.omar, { is_employee_brm: false, cause: 'leaving', leavingOn: '2027-07-01' }],
      ].sort(),
    );
    const grant = await t.ctx.db
      .selectFrom('role_grants')
      .selectAll()
      .where('account_id', '=', ids.gus!)
      .executeTakeFirstOrThrow();
    expect(grant.sponsor_id).toBeNull();
    expect((await infosec()).filter((m) => m.template === 'brm-transfer-automatic')).not.toHaveLength(0);
    // Now in the sponsorship report.
    const report = (await clients.ada!.call(departure.getSponsorship, { query: { size: 100 } })).json();
    expect(report.items.map((g: { username: string }) => g.username)).toContain('gus');
  });
});
