import {
  adminMessages,
  policyMessages,
  type GovernancePolicies,
  type GovernanceSettings,
} from '@pra/contracts';
import {
  exportAccessEnding,
  getAccessEnding,
  getGovernancePolicies,
  saveGovernancePolicy,
} from '@pra/contracts/endpoints/governance';
import {
  changeOrganization,
  changePerson,
  listOrganizations,
  listPeople,
} from '@pra/contracts/endpoints/administration';
import { getRoutingOverview, setAssignmentKind } from '@pra/contracts/endpoints/approval-routing';
import { organizationList, peopleList } from '@pra/contracts/administration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../platform/clock';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm, auditActions } from '../../../test/support/world';

// Governance's admin screens' calls (GOVERNANCE.md §2.3, §3.2, §2.5): organizations' risk tier and
// contract end, the tier policies, the auditor flag, the Access ending report and its CSV; every
// role against each (vendor, BRM, admin, auditor, anonymous), bad input, concurrent changes.

const START = new Date('2027-03-01T14:00:00Z'); // 09:00 in New York, the default PORTAL_TIME_ZONE
const DAY = 86_400_000;
const READ_ONLY = 'Unauthorized: Auditors have read-only access';
const NOT_ADMIN = 'Unauthorized: User is not an admin';

describe.each(testDatabaseKinds)('governance administration on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(START);
  const ids: Record<string, string> = {};
  const clients: Record<string, TestClient> = {};

  /** A vendor holding the organization's role until `days` from START (sponsor: the BRM). */
  async function grant(username: string, org: string, days: number, names?: [string, string]) {
    const id = await createAccount(t, { username });
    if (names)
      await t.ctx.db
        .updateTable('accounts')
        .set({ given_name: names[0], family_name: names[1] })
        .where('id', '=', id)
        .execute();
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: id,
        organization_id: ids[org]!,
        granted_by: ids.brm!,
        sponsor_id: ids.brm!,
        expires_at: new Date(START.getTime() + days * DAY),
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    ids.globex = await addOrganization(t, 'Globex', ['globex.example']);
    ids.admin = await createAccount(t, { username: 'theadmin', type: 'employee', isAdmin: true });
    ids.admin2 = await createAccount(t, { username: 'otheradmin', type: 'employee', isAdmin: true });
    ids.brm = await createAccount(t, { username: 'thebrm', type: 'employee', isEmployeeBrm: true });
    ids.auditor = await createAccount(t, {
      username: 'theauditor',
      type: 'employee',
      isAdmin: true,
      isEmployeeBrm: true,
    });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', ids.auditor).execute();
    await assignBrm(t, ids.brm, ids.acme);
    await assignBrm(t, ids.brm, ids.globex);
    await createAccount(t, { username: 'thevendor' });
    for (const name of ['theadmin', 'otheradmin', 'thebrm', 'theauditor', 'thevendor'])
      clients[name] = await signInAs(t, name);
    clients.anonymous = new TestClient(t.app);
    await clients.anonymous.fetchCsrf();
  });
  afterAll(async () => t?.close());

  const policies = async (who = 'theadmin') =>
    (await clients[who]!.call(getGovernancePolicies)).json<GovernancePolicies>();
  const settingsOf = async (tier: 'standard' | 'high') =>
    (await policies()).policies.find((p) => p.tier === tier)!;

  describe('who may call', () => {
    it('answers 401 to anonymous and 403 to vendors and BRMs on every governance admin call', async () => {
      const standard = await settingsOf('standard');
      const calls = [() => getGovernancePolicies, () => getAccessEnding, () => exportAccessEnding] as const;
      for (const who of ['anonymous', 'thevendor', 'thebrm']) {
        const client = clients[who]!;
        const answers = [
          ...(await Promise.all(calls.map(async (endpoint) => client.call(endpoint())))),
          await client.call(saveGovernancePolicy, {
            body: { tier: 'standard', version: standard.version, settings: standard.settings },
          }),
          await client.call(changeOrganization, { params: { id: ids.acme! }, body: { riskTier: 'high' } }),
          await client.call(changePerson, { params: { id: ids.brm! }, body: { isAuditor: true } }),
        ];
        for (const res of answers) {
          expect(res.statusCode, who).toBe(who === 'anonymous' ? 401 : 403);
          if (who !== 'anonymous') expect(res.json(), who).toEqual({ errors: [NOT_ADMIN] });
        }
      }
      const org = organizationList.parse(
        (await clients.theadmin!.call(listOrganizations)).json(),
      ).organizations;
      expect(org.find((o) => o.id === ids.acme)?.riskTier).toBe('standard');
    });

    it('lets the auditor read policies, organizations, people and the report, and refuses every change (audited)', async () => {
      const auditor = clients.theauditor!;
      const read = await policies('theauditor');
      expect(read.canEdit).toBe(false);
      expect((await policies()).canEdit).toBe(true);
      expect((await auditor.call(getAccessEnding)).statusCode).toBe(200);
      expect((await auditor.call(exportAccessEnding)).statusCode).toBe(200);
      expect((await auditor.call(listOrganizations)).statusCode).toBe(200);
      const people = peopleList.parse((await auditor.call(listPeople)).json()).people;
      expect(people.find((p) => p.username === 'theauditor')?.isAuditor).toBe(true);
      const before = (await auditActions(t, 'access.role-refused')).length;
      const standard = read.policies.find((p) => p.tier === 'standard')!;
      const refused = [
        await auditor.call(saveGovernancePolicy, {
          body: {
            tier: 'standard',
            version: standard.version,
            settings: { ...standard.settings, accessDays: 30 },
          },
        }),
        await auditor.call(changeOrganization, { params: { id: ids.acme! }, body: { riskTier: 'high' } }),
        await auditor.call(changeOrganization, {
          params: { id: ids.acme! },
          body: { contractEndsOn: '2027-12-31' },
        }),
        await auditor.call(changePerson, { params: { id: ids.auditor! }, body: { isAuditor: false } }),
      ];
      for (const res of refused) expect([res.statusCode, res.json()]).toEqual([403, { errors: [READ_ONLY] }]);
      expect((await auditActions(t, 'access.role-refused')).length).toBe(before + refused.length);
      expect((await settingsOf('standard')).settings.accessDays).toBe(180);
    });
  });

  describe('policies', () => {
    it('shows each tier with GOVERNANCE.md §2.3 defaults, standard first', async () => {
      const { policies: tiers } = await policies();
      expect(tiers.map((p) => p.tier)).toEqual(['standard', 'high']);
      const [standard, high] = tiers as [(typeof tiers)[0], (typeof tiers)[0]];
      expect(standard.settings).toMatchObject({
        accessDays: 180,
        maxAccessDays: 365,
        expiryNoticeDays: [14, 7, 1],
        requestDecisionDays: 14,
        approverReminderDays: [3, 7],
        forwardDay: 8,
      });
      expect(high.settings).toMatchObject({ accessDays: 90, maxAccessDays: 180, requestDecisionDays: 7 });
      expect(standard.version).toMatch(/^[\w-]{22}$/);
    });

    it('saves a tier, audited policy.change with what changed; the new version replaces the old', async () => {
      const high = await settingsOf('high');
      const settings: GovernanceSettings = { ...high.settings, accessDays: 60, expiryNoticeDays: [10, 3] };
      const res = await clients.theadmin!.call(saveGovernancePolicy, {
        body: { tier: 'high', version: high.version, settings },
      });
      expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
      const after = await settingsOf('high');
      expect(after.settings.accessDays).toBe(60);
      expect(after.updatedBy).toBe('theadmin');
      expect(after.updatedAt).toBe(START.toISOString());
      expect(after.version).not.toBe(high.version);
      const [event] = await auditActions(t, 'policy.change');
      expect(event?.actor_username).toBe('theadmin');
      expect(event?.details).toEqual({
        tier: 'high',
        accessDays: '90 → 60',
        expiryNoticeDays: '[14,7,1] → [10,3]',
      });
      // The standard tier is untouched.
      expect((await settingsOf('standard')).settings.accessDays).toBe(180);
      // Saving the same settings again changes nothing and audits nothing.
      await clients.theadmin!.call(saveGovernancePolicy, {
        body: { tier: 'high', version: after.version, settings },
      });
      expect(await auditActions(t, 'policy.change')).toHaveLength(1);
    });

    it('refuses bad settings with the message for the field, saving nothing', async () => {
      const standard = await settingsOf('standard');
      const cases: [Partial<GovernanceSettings> & Record<string, unknown>, string][] = [
        [{ accessDays: 400 }, `settings.accessDays: ${policyMessages.accessDaysOverCap}`],
        [
          { approverReminderDays: [3, 14] },
          `settings.approverReminderDays: ${policyMessages.remindersAfterDeadline}`,
        ],
        [{ forwardDay: 14 }, `settings.forwardDay: ${policyMessages.forwardAfterDeadline}`],
        [
          { reviewEscalationDay: 20 },
          `settings.reviewEscalationDay: ${policyMessages.escalationAfterWindow}`,
        ],
        [
          { reviewerReminderDays: [7, 15] },
          `settings.reviewerReminderDays: ${policyMessages.reviewRemindersAfterWindow}`,
        ],
        [
          { inactivityWarningDays: [90] },
          `settings.inactivityWarningDays: ${policyMessages.inactivityWarningsTooLate}`,
        ],
        [{ expiryNoticeDays: [7, 7] }, `settings.expiryNoticeDays: ${policyMessages.duplicateDays}`],
        [{ accessDays: 0 }, 'settings.accessDays:'],
        [{ accessDays: 1.5 }, 'settings.accessDays:'],
        [{ accessDays: '30' as unknown as number }, 'settings.accessDays:'],
        [{ unknownSetting: 1 }, 'settings:'],
      ];
      for (const [change, message] of cases) {
        const res = await clients.theadmin!.call(saveGovernancePolicy, {
          body: {
            tier: 'standard',
            version: standard.version,
            settings: { ...standard.settings, ...change },
          },
        });
        expect(res.statusCode, JSON.stringify(change)).toBe(400);
        expect(res.json<{ errors: string[] }>().errors.join('\n'), JSON.stringify(change)).toContain(message);
      }
      const badTier = await clients.theadmin!.send('PUT', '/api/admin/governance/policies', {
        tier: 'critical',
        version: standard.version,
        settings: standard.settings,
      });
      expect(badTier.statusCode).toBe(400);
      const missing = await clients.theadmin!.send('PUT', '/api/admin/governance/policies', {
        tier: 'standard',
        settings: standard.settings,
      });
      expect(missing.statusCode).toBe(400);
      expect((await settingsOf('standard')).version).toBe(standard.version);
    });

    it('of two admins saving the same version at once, one wins and the other is told to reload', async () => {
      const standard = await settingsOf('standard');
      const save = (who: string, accessDays: number) =>
        clients[who]!.call(saveGovernancePolicy, {
          body: {
            tier: 'standard',
            version: standard.version,
            settings: { ...standard.settings, accessDays },
          },
        });
      const answers = await Promise.all([save('theadmin', 120), save('otheradmin', 150)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const loser = answers.find((r) => r.statusCode === 409)!;
      expect(loser.json()).toEqual({ errors: [policyMessages.changedMeanwhile] });
      const winner = answers.findIndex((r) => r.statusCode === 200);
      expect((await settingsOf('standard')).settings.accessDays).toBe(winner === 0 ? 120 : 150);
      // A stale version stays refused afterwards too.
      expect((await save('theadmin', 100)).statusCode).toBe(409);
    });
  });

  describe('organizations: risk tier and contract end', () => {
    const change = (body: object, who = 'theadmin', id = ids.acme!) =>
      clients[who]!.send('PATCH', `/api/admin/organizations/${id}`, body);
    const orgOf = async (id: string) =>
      organizationList
        .parse((await clients.theadmin!.call(listOrganizations)).json())
        .organizations.find((o) => o.id === id)!;

    it('sets the risk tier, audited org.tier-change from and to; setting it again audits nothing', async () => {
      const res = await change({ riskTier: 'high' });
      expect([res.statusCode, res.json()]).toEqual([200, { success: true, grantsPastContractEnd: 0 }]);
      expect((await orgOf(ids.acme!)).riskTier).toBe('high');
      await change({ riskTier: 'high' });
      const events = await auditActions(t, 'org.tier-change');
      expect(events).toHaveLength(1);
      expect(events[0]?.details).toEqual({
        organization: 'Acme Imaging',
        from: 'standard',
        to: 'high',
      });
      expect(events[0]?.organization_id).toBe(ids.acme);
      await change({ riskTier: 'standard' });
      expect((await orgOf(ids.acme!)).riskTier).toBe('standard');
    });

    it('sets and clears the contract end, says how many current grants end later, audited', async () => {
      await grant('endslate', 'globex', 200);
      await grant('endssoon', 'globex', 20);
      const res = await change({ contractEndsOn: '2027-06-30' }, 'theadmin', ids.globex);
      expect([res.statusCode, res.json()]).toEqual([200, { success: true, grantsPastContractEnd: 1 }]);
      expect((await orgOf(ids.globex!)).contractEndsOn).toBe('2027-06-30');
      // Nothing is cut silently: the grant past the date still ends when it did.
      const late = await t.ctx.db
        .selectFrom('role_grants as g')
        .innerJoin('accounts as a', 'a.id', 'g.account_id')
        .select('g.expires_at')
        .where('a.username', '=', 'endslate')
        .executeTakeFirstOrThrow();
      expect(new Date(late.expires_at).getTime()).toBe(START.getTime() + 200 * DAY);
      // Today (hospital time) is allowed; clearing it too.
      expect((await change({ contractEndsOn: '2027-03-01' }, 'theadmin', ids.globex)).statusCode).toBe(200);
      expect((await change({ contractEndsOn: null }, 'theadmin', ids.globex)).json()).toEqual({
        success: true,
        grantsPastContractEnd: 0,
      });
      expect((await orgOf(ids.globex!)).contractEndsOn).toBeNull();
      const events = (await auditActions(t, 'org.contract-end-change')).map((e) => e.details);
      expect(events).toEqual([
        { organization: 'Globex', from: null, to: '2027-06-30', grantsPastContractEnd: 1 },
        { organization: 'Globex', from: '2027-06-30', to: '2027-03-01', grantsPastContractEnd: 2 },
        { organization: 'Globex', from: '2027-03-01', to: null },
      ]);
    });

    it('refuses a past date, a bad date, an unknown tier or organization, changing nothing', async () => {
      const cases: [object, number, string][] = [
        [{ contractEndsOn: '2027-02-28' }, 400, `contractEndsOn: ${adminMessages.contractEndInPast}`],
        [{ contractEndsOn: '2027-02-30' }, 400, 'contractEndsOn: Enter a real date'],
        [{ contractEndsOn: '31/12/2027' }, 400, 'contractEndsOn: Enter a date as YYYY-MM-DD'],
        [{ riskTier: 'critical' }, 400, 'riskTier'],
        [{ riskTier: 'high', colour: 'red' }, 400, ''],
      ];
      for (const [body, status, message] of cases) {
        const res = await change(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().errors.join('\n'), JSON.stringify(body)).toContain(message);
      }
      const unknown = await change({ riskTier: 'high' }, 'theadmin', '00000000-0000-4000-8000-000000000000');
      expect([unknown.statusCode, unknown.json()]).toEqual([
        404,
        { errors: [adminMessages.organizationIdNotFound] },
      ]);
      const org = await orgOf(ids.acme!);
      expect([org.riskTier, org.contractEndsOn]).toEqual(['standard', null]);
    });

    it('applies two admins’ changes made at once one after the other, each audited with what it changed from', async () => {
      const before = (await auditActions(t, 'org.tier-change')).length;
      const answers = await Promise.all([
        change({ riskTier: 'high' }, 'theadmin'),
        change({ riskTier: 'high', contractEndsOn: '2028-01-31' }, 'otheradmin'),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      const org = await orgOf(ids.acme!);
      expect([org.riskTier, org.contractEndsOn]).toEqual(['high', '2028-01-31']);
      // The row is locked: the second saw the first's tier and audited no second change.
      expect((await auditActions(t, 'org.tier-change')).length).toBe(before + 1);
      await change({ riskTier: 'standard', contractEndsOn: null });
    });
  });

  describe('the auditor flag on People', () => {
    const set = (id: string, body: object, who = 'theadmin') =>
      clients[who]!.send('PATCH', `/api/admin/people/${id}`, body);

    it('sets and clears it, audited; an auditor so made is read-only at once', async () => {
      const res = await set(ids.admin2!, { isAuditor: true });
      expect(res.statusCode).toBe(200);
      const people = peopleList.parse((await clients.theadmin!.call(listPeople)).json()).people;
      expect(people.find((p) => p.id === ids.admin2)?.isAuditor).toBe(true);
      expect((await auditActions(t, 'person.auditor-set')).map((e) => e.target_username)).toEqual([
        'otheradmin',
      ]);
      // Their next change is refused (the session reads the account on every call).
      const refused = await clients.otheradmin!.call(changeOrganization, {
        params: { id: ids.acme! },
        body: { riskTier: 'high' },
      });
      expect([refused.statusCode, refused.json()]).toEqual([403, { errors: [READ_ONLY] }]);
      expect((await set(ids.admin2!, { isAuditor: false })).statusCode).toBe(200);
      expect((await auditActions(t, 'person.auditor-clear')).map((e) => e.target_username)).toEqual([
        'otheradmin',
      ]);
      expect(
        (
          await clients.otheradmin!.call(changeOrganization, {
            params: { id: ids.acme! },
            body: { riskTier: 'standard' },
          })
        ).statusCode,
      ).toBe(200);
    });

    it('refuses making oneself an auditor; of two admins making each other auditors at once, one stays able to change things', async () => {
      const self = await set(ids.admin!, { isAuditor: true });
      expect([self.statusCode, self.json()]).toEqual([409, { errors: [adminMessages.auditorYourself] }]);
      // Only the two of them change things (theauditor is read-only): after the first change,
      // the second is refused, by the read-only guard when its caller has just become an
      // auditor, else by the rule (the admins' rows are locked while they are counted).
      const answers = await Promise.all([
        set(ids.admin2!, { isAuditor: true }, 'theadmin'),
        set(ids.admin!, { isAuditor: true }, 'otheradmin'),
      ]);
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
      const refused = answers.find((r) => r.statusCode !== 200)!;
      expect([
        [403, { errors: [READ_ONLY] }],
        [409, { errors: [adminMessages.lastChangingAdmin] }],
      ]).toContainEqual([refused.statusCode, refused.json()]);
      const rows = await t.ctx.db
        .selectFrom('accounts')
        .select(['username', 'is_auditor'])
        .where('id', 'in', [ids.admin!, ids.admin2!])
        .execute();
      expect(rows.filter((r) => !r.is_auditor)).toHaveLength(1);
      await t.ctx.db
        .updateTable('accounts')
        .set({ is_auditor: false })
        .where('id', 'in', [ids.admin!, ids.admin2!])
        .execute();
    });

    it('adds a person as an auditor from the start, audited with the flag', async () => {
      const res = await clients.theadmin!.post('/api/admin/people', {
        username: 'newauditor',
        givenName: 'New',
        familyName: 'Auditor',
        email: 'new.auditor@hospital.example',
        isAdmin: true,
        isAuditor: true,
      });
      expect(res.statusCode).toBe(200);
      const people = peopleList.parse((await clients.theadmin!.call(listPeople)).json()).people;
      expect(people.find((p) => p.username === 'newauditor')).toMatchObject({
        isAdmin: true,
        isAuditor: true,
      });
      const created = (await auditActions(t, 'person.create')).find(
        (e) => e.target_username === 'newauditor',
      );
      expect(created?.details).toEqual({ isEmployeeBrm: false, isAdmin: true, isAuditor: true });
    });

    it('lets the auditor read the approval routing and refuses them the Primary/Backup change', async () => {
      const overview = await clients.theauditor!.call(getRoutingOverview);
      expect(overview.statusCode).toBe(200);
      expect(overview.json().assignments.filter((a) => a.personId === ids.brm)).toHaveLength(2);
      const refused = await clients.theauditor!.call(setAssignmentKind, {
        params: { id: ids.brm!, orgId: ids.acme! },
        body: { kind: 'backup' },
      });
      expect([refused.statusCode, refused.json()]).toEqual([403, { errors: [READ_ONLY] }]);
      for (const who of ['thevendor', 'thebrm']) {
        expect((await clients[who]!.call(getRoutingOverview)).statusCode, who).toBe(403);
      }
      expect((await clients.anonymous!.call(getRoutingOverview)).statusCode).toBe(401);
      const kinds = (await clients.theadmin!.call(getRoutingOverview)).json().assignments;
      expect(kinds.find((a) => a.personId === ids.brm && a.organizationId === ids.acme)?.kind).toBe(
        'primary',
      );
    });

    it('refuses setting it on an unknown person or a vendor', async () => {
      const unknown = await set('00000000-0000-4000-8000-000000000000', { isAuditor: true });
      expect([unknown.statusCode, unknown.json()]).toEqual([
        404,
        { errors: [adminMessages.personIdNotFound] },
      ]);
      const vendorId = await createAccount(t, { username: 'auditvendor' });
      const vendor = await set(vendorId, { isAuditor: true });
      expect([vendor.statusCode, vendor.json()]).toEqual([
        409,
        { errors: [adminMessages.notAnEmployee('auditvendor')] },
      ]);
      const bad = await set(ids.brm!, { isAuditor: 'yes' });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('the Access ending report', () => {
    beforeAll(async () => {
      await grant('soon3', 'acme', 3, ['Sam', 'Soon']);
      await grant('mid20', 'acme', 20, ['Mia', 'Middle']);
      await grant('far45', 'acme', 45, ['Fay', 'Far']);
      await grant('formula', 'acme', 10, ['=HYPERLINK("x")', '+Cmd']);
      // An extension pending for mid20.
      const mid = await t.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('username', '=', 'mid20')
        .executeTakeFirstOrThrow();
      const request = await t.ctx.db
        .insertInto('requests')
        .values({
          type: 'Extend Access',
          requester_id: mid.id,
          beneficiary_id: mid.id,
          status: 'pending',
          created_at: START,
          updated_at: START,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.ctx.db
        .insertInto('request_items')
        .values({
          request_id: request.id,
          organization_id: ids.acme!,
          operation: 'Extend',
          status: 'pending',
          expires_at: new Date(START.getTime() + 14 * DAY),
        })
        .execute();
    });

    const page = async (query: Record<string, string | number> = {}, who = 'theadmin') =>
      clients[who]!.call(getAccessEnding, { query: query });

    it('lists grants ending in the next 30 days by end date, with days left, sponsor and pending extension', async () => {
      const res = await page({ organization: ids.acme! });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect([body.from, body.until, body.total, body.matching, body.page]).toEqual([
        '2027-03-01',
        '2027-03-31',
        3,
        3,
        1,
      ]);
      expect(body.items.map((r) => [r.username, r.endsOn, r.daysLeft, r.extensionPending])).toEqual([
        ['soon3', '2027-03-04', 3, false],
        ['formula', '2027-03-11', 10, false],
        ['mid20', '2027-03-21', 20, true],
      ]);
      expect(body.items[0]).toMatchObject({
        organization: 'Acme Imaging',
        vendor: 'Sam Soon',
        email: 'soon3@example.test',
        sponsor: 'Thebrm Tester',
      });
    });

    it('filters by window, organization and text; sorts; pages on the server', async () => {
      const ninety = (await page({ days: 90, organization: ids.acme! })).json();
      expect(ninety.items.map((r) => r.username)).toContain('far45');
      const week = (await page({ days: 7 })).json();
      expect(week.items.map((r) => r.username)).toEqual(['soon3']);
      const globex = (await page({ organization: ids.globex!, days: 90 })).json();
      expect(globex.items.map((r) => r.username)).toEqual(['endssoon']);
      const text = (await page({ filter: 'MIDDLE' })).json();
      expect([text.total, text.matching, text.items.map((r) => r.username)]).toEqual([4, 1, ['mid20']]);
      const sorted = (await page({ sort: 'vendor', direction: 'desc', organization: ids.acme! })).json();
      expect(sorted.items.map((r) => r.username)).toEqual(['soon3', 'mid20', 'formula']);
      const paged = (await page({ size: 2, page: 2, organization: ids.acme! })).json();
      expect([paged.page, paged.items.map((r) => r.username)]).toEqual([2, ['mid20']]);
      const past = (await page({ size: 2, page: 9, organization: ids.acme! })).json();
      expect(past.page).toBe(2);
    });

    it('refuses bad filters with their message', async () => {
      const cases: [Record<string, string | number>, string][] = [
        [{ days: 31 }, 'days must be one of: 7, 14, 30, 60, 90'],
        [{ days: 'x' }, 'days must be one of'],
        [{ organization: 'acme' }, 'Not a valid organization id.'],
        [{ size: 1000 }, 'size must be a whole number from 1 to 100'],
        [{ sort: 'email' }, 'sort must be one of: endsOn, organization, vendor, sponsor'],
        [{ colour: 'red' }, ''],
      ];
      for (const [query, message] of cases) {
        const res = await page(query);
        expect(res.statusCode, JSON.stringify(query)).toBe(400);
        expect(res.json<{ errors: string[] }>().errors.join('\n')).toContain(message);
      }
    });

    it('streams a large CSV in batches, every row once, by end date', async () => {
      const big = await addOrganization(t, 'Bulk Vendors', ['bulk.example']);
      const n = 1_205;
      const accounts = await t.ctx.db
        .insertInto('accounts')
        .values(
          Array.from({ length: n }, (_, i) => ({
            username: `bulk${String(i).padStart(4, '0')}`,
            given_name: 'Bulk',
            family_name: `Vendor ${i}`,
            email: `bulk${i}@bulk.example`,
            type: 'vendor' as const,
            status: 'active' as const,
          })),
        )
        .returning(['id', 'username'])
        .execute();
      await t.ctx.db
        .insertInto('role_grants')
        .values(
          accounts.map((a, i) => ({
            account_id: a.id,
            organization_id: big,
            granted_by: ids.brm!,
            sponsor_id: null,
            expires_at: new Date(START.getTime() + (1 + (i % 25)) * DAY),
          })),
        )
        .execute();
      const res = await clients.theadmin!.call(exportAccessEnding, { query: { organization: big } });
      const lines = res.body.trimEnd().split('\r\n').slice(1);
      expect(lines).toHaveLength(n);
      expect(new Set(lines.map((l) => l.split(',')[1])).size).toBe(n);
      const ends = lines.map((l) => l.split(',')[4]!);
      expect([...ends].sort()).toEqual(ends);
      expect(lines.every((l) => l.endsWith(',No sponsor,No'))).toBe(true);
      const counted = (await page({ organization: big, size: 100, page: 13 })).json();
      expect([counted.total, counted.matching, counted.page, counted.items.length]).toEqual([n, n, 13, 5]);
    });

    it('downloads the CSV with the columns, every matching row and formula-safe cells', async () => {
      const res = await clients.theadmin!.call(exportAccessEnding, { query: { organization: ids.acme! } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="access-ending-2027-03-01-30d.csv"',
      );
      expect(res.headers['cache-control']).toBe('no-store');
      const lines = res.body.trimEnd().split('\r\n');
      expect(lines).toEqual([
        'Organization,Username,Vendor,Email,Access ends,Days left,Sponsor,Extension pending',
        'Acme Imaging,soon3,Sam Soon,soon3@example.test,2027-03-04,3,Thebrm Tester,No',
        `Acme Imaging,formula,"'=HYPERLINK(""x"") +Cmd",formula@example.test,2027-03-11,10,Thebrm Tester,No`,
        'Acme Imaging,mid20,Mia Middle,mid20@example.test,2027-03-21,20,Thebrm Tester,Yes',
      ]);
      const empty = await clients.theadmin!.call(exportAccessEnding, {
        query: { days: 7, organization: ids.globex! },
      });
      expect(empty.body).toBe(
        'Organization,Username,Vendor,Email,Access ends,Days left,Sponsor,Extension pending\r\n',
      );
      const bad = await clients.theadmin!.call(exportAccessEnding, { query: { days: 5 } });
      expect(bad.statusCode).toBe(400);
    });
  });
});
