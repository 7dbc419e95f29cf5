import {
  approvalMessages,
  departureReportMessages,
  emergencyMessages,
  roleName,
  type PendingApproval,
} from '@pra/contracts';
import { grantEmergencyAccess, reportDeparture } from '@pra/contracts/endpoints/access';
import { approveOrDeny, getPendingApprovals } from '@pra/contracts/endpoints/approvals';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import {
  addOrganization,
  addRequest,
  auditActions as allAuditActions,
  outbox,
} from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { endOfLocalDay, localInstant } from '../../platform/local-time';
import { sweepNow } from '../../identity/governance/sweeper';

// Emergency access and vendor-reported departures (GOVERNANCE.md §10), on both engines under a
// test clock: the grant ends by itself at its hour with its mails and audit, the acknowledgement
// reminders, the departure deadlines (24 h; 4 h and a suspension at once for the high tier), every
// message, who may act, and two people acting at once.

const ZONE = 'America/New_York';
const START = localInstant('2027-03-01', { hour: 10, minute: 0, second: 0 }, ZONE);
const HOUR = 3_600_000;
const ACME = roleName('Acme Imaging');
const HIGH = roleName('Hightec Labs');

describe.each(testDatabaseKinds)('emergency access and reported departures on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(START);
  const ids: Record<string, string> = {};
  const clients: Record<string, TestClient> = {};
  let seen = new Set<string>();
  let oldAudit = new Set<string>();
  /** The audit events of `action` written in this test. */
  const auditActions = async (_t: TestApp, action: string) =>
    (await allAuditActions(t, action)).filter((e) => !oldAudit.has(String(e.id)));

  async function newMails() {
    const all = await outbox(t);
    const fresh = all.filter((m) => !seen.has(m.id));
    seen = new Set(all.map((m) => m.id));
    return fresh.map((m) => ({ to: m.recipient, template: m.template, subject: m.subject }));
  }
  const sweep = () => sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  const advance = (ms: number) => clock.set(new Date(clock.now().getTime() + ms));
  const grantOf = (account: string, org: string) =>
    t.ctx.db
      .selectFrom('role_grants')
      .selectAll()
      .where('account_id', '=', ids[account]!)
      .where('organization_id', '=', ids[org]!)
      .executeTakeFirst();
  const give = (account: string, org: string) =>
    t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: ids[account]!,
        organization_id: ids[org]!,
        granted_by: ids.primary!,
        sponsor_id: ids.primary!,
        request_item_id: null,
        expires_at: endOfLocalDay('2027-08-01', ZONE),
      })
      .execute();
  const emergency = (client: string, body: Record<string, unknown> = {}) =>
    clients[client]!.call(grantEmergencyAccess, {
      body: {
        targetUsername: 'outsider',
        name: ACME,
        hours: 72,
        ticket: 'INC-4711',
        reason: 'Pump gateway down',
        ...body,
      },
    });
  const report = (client: string, body: Record<string, unknown> = {}) =>
    clients[client]!.call(reportDeparture, {
      body: {
        name: ACME,
        colleague: 'colleague@example.test',
        leftOn: '2027-02-27',
        note: 'Left last Friday',
        ...body,
      },
    });
  const decide = (client: string, requestId: string, decision: 'APPROVE' | 'DENY', comment = '') =>
    clients[client]!.call(approveOrDeny, { body: { decision, requestId, comment } });
  const rowsOf = async (client: string) =>
    (await clients[client]!.call(getPendingApprovals)).json<{ pendingApprovals: PendingApproval[] }>()
      .pendingApprovals;
  const requestOf = async (type: 'Emergency Access' | 'Departure Reported') =>
    (
      await t.ctx.db
        .selectFrom('requests')
        .select('id')
        .where('type', '=', type)
        .where('status', '=', 'pending')
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).id;
  const statusOf = async (account: string) =>
    t.ctx.db
      .selectFrom('accounts')
      .select(['status', 'disabled_reason'])
      .where('id', '=', ids[account]!)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging');
    ids.high = await addOrganization(t, 'Hightec Labs');
    ids.globex = await addOrganization(t, 'Globex Health IT');
    await t.ctx.db
      .updateTable('organizations')
      .set({ risk_tier: 'high' })
      .where('id', '=', ids.high)
      .execute();
    const people: [string, { isEmployeeBrm?: boolean; isAdmin?: boolean }][] = [
      ['primary', { isEmployeeBrm: true }],
      ['globexbrm', { isEmployeeBrm: true }],
      ['admin', { isAdmin: true }],
      ['auditor', { isAdmin: true, isEmployeeBrm: true }],
    ];
    for (const [username, flags] of people)
      ids[username] = await createAccount(t, { username, type: 'employee', ...flags });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', ids.auditor!).execute();
    for (const name of ['vendor', 'colleague', 'outsider'])
      ids[name] = await createAccount(t, { username: name });
    for (const [account, org] of [
      ['primary', 'acme'],
      ['primary', 'high'],
      ['globexbrm', 'globex'],
    ] as const) {
      await t.ctx.db
        .insertInto('brm_assignments')
        .values({ account_id: ids[account]!, organization_id: ids[org]!, kind: 'primary' })
        .execute();
    }
    for (const name of [...people.map(([n]) => n), 'vendor', 'colleague', 'outsider'])
      clients[name] = await signInAs(t, name);
    clients.anonymous = new TestClient(t.app);
    await clients.anonymous.fetchCsrf();
  });
  beforeEach(async () => {
    clock.set(START);
    for (const table of ['request_items', 'requests'] as const) {
      await t.ctx.db
        .updateTable(table)
        .set({ status: 'cancelled' })
        .where('status', '=', 'pending')
        .execute();
    }
    await t.ctx.db.deleteFrom('departure_reports').execute();
    await t.ctx.db.deleteFrom('role_grants').execute();
    await t.ctx.db.deleteFrom('emergency_grants').execute();
    await t.ctx.db.deleteFrom('rate_limits').execute();
    await t.ctx.db.updateTable('accounts').set({ status: 'active', disabled_reason: null }).execute();
    await give('vendor', 'acme');
    await give('vendor', 'high');
    await give('colleague', 'acme');
    await give('colleague', 'high');
    await give('outsider', 'globex');
    oldAudit = new Set(
      (await t.ctx.db.selectFrom('audit_events').select('id').execute()).map((e) => String(e.id)),
    );
    // A test may have ended their sessions (a disable, a suspension).
    for (const name of ['outsider', 'colleague']) clients[name] = await signInAs(t, name);
    await newMails();
  });
  afterAll(async () => t?.close());

  describe('emergency access (§10.1)', () => {
    it('grants for 72 hours, mails and audits, and ends by itself at the hour (idempotent)', async () => {
      const res = await emergency('admin');
      expect(res.statusCode).toBe(200);
      const endsAt = new Date(START.getTime() + 72 * HOUR);
      expect(res.json()).toMatchObject({ success: true, endsAt: endsAt.toISOString() });
      const grant = await grantOf('outsider', 'acme');
      expect(grant!.emergency_id).not.toBeNull();
      expect(new Date(grant!.expires_at)).toEqual(endsAt);
      expect((await auditActions(t, 'emergency.grant')).at(-1)!.details).toMatchObject({
        ticket: 'INC-4711',
        hours: 72,
      });
      const mails = await newMails();
      expect(mails.map((m) => `${m.to} ${m.template}`).sort()).toEqual([
        'admin@example.test emergency-granted-infosec',
        'auditor@example.test emergency-granted-infosec',
        'outsider@example.test emergency-granted-vendor',
        'primary@example.test emergency-granted-brm',
      ]);
      // The follow-up item for the organization's BRMs.
      const row = (await rowsOf('primary')).find((r) => r.type === 'Emergency Access')!;
      expect(row).toMatchObject({ org: 'Acme Imaging', canDecide: true, accessEnds: null });
      expect(row.emergency).toMatchObject({ ticket: 'INC-4711', hours: 72, endedAt: null });
      expect((await rowsOf('globexbrm')).some((r) => r.type === 'Emergency Access')).toBe(false);

      // No expiry notice for an emergency grant, and nothing ends before the hour.
      advance(72 * HOUR - 60_000);
      await sweep();
      expect(await grantOf('outsider', 'acme')).toBeDefined();
      // (The sweep's other steps mail as the days pass: the BRMs' daily digest, across a Monday
      // InfoSec's weekly activity review, and the high tier's security-key requirement (W3) to a
      // vendor without a key; none is this test's subject.)
      const otherSteps = [
        'access-digest',
        'activity-review-ready',
        'activity-review-reminder',
        'passkey-required',
      ];
      expect((await newMails()).filter((m) => !otherSteps.includes(m.template))).toEqual([]);
      advance(60_000);
      await sweep();
      expect(await grantOf('outsider', 'acme')).toBeUndefined();
      const history = await t.ctx.db
        .selectFrom('grant_history')
        .selectAll()
        .where('account_id', '=', ids.outsider!)
        .where('organization_id', '=', ids.acme!)
        .execute();
      expect(history.map((h) => h.end_reason)).toEqual(['emergencyEnded']);
      const ended = (await auditActions(t, 'emergency.end')).at(-1)!;
      expect(ended.details).toMatchObject({ reason: 'expired', grantEnded: true });
      expect(ended.actor_username).toBe('system');
      const endMails = (await newMails()).filter((m) => m.template === 'emergency-ended');
      expect(endMails.map((m) => m.to).sort()).toEqual([
        'admin@example.test',
        'auditor@example.test',
        'outsider@example.test',
        'primary@example.test',
      ]);
      // The outsider keeps Globex: still enabled. A second sweep changes nothing.
      expect((await statusOf('outsider')).status).toBe('active');
      await sweep();
      expect((await newMails()).filter((m) => m.template.startsWith('emergency'))).toEqual([]);
      expect((await auditActions(t, 'emergency.end')).length).toBe(1);
    });

    it('disables an account left with no access when the emergency grant ends', async () => {
      await t.ctx.db.deleteFrom('role_grants').where('account_id', '=', ids.outsider!).execute();
      expect((await emergency('admin', { hours: 1 })).statusCode).toBe(200);
      advance(HOUR);
      await sweep();
      expect(await statusOf('outsider')).toEqual({ status: 'disabled', disabled_reason: 'noAccess' });
    });

    it('refuses bad input with 400 and the message', async () => {
      const hours = emergencyMessages.hours(72);
      const cases: [Record<string, unknown>, string][] = [
        [{ hours: 0 }, hours],
        [{ hours: 73 }, hours],
        [{ hours: 'ten' }, hours],
        [{ hours: 1.5 }, hours],
        [{ ticket: '' }, emergencyMessages.ticketRequired],
        [{ ticket: undefined }, emergencyMessages.ticketRequired],
      ];
      for (const [body, message] of cases) {
        const res = await emergency('admin', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(
          res.json<{ errors: string[] }>().errors.some((e) => e.endsWith(message)),
          JSON.stringify(res.json()),
        ).toBe(true);
      }
      expect(await grantOf('outsider', 'acme')).toBeUndefined();
      expect(await auditActions(t, 'emergency.grant')).toEqual([]);
    });

    it('is refused when the vendor already has access; never extends an ordinary grant', async () => {
      const before = await grantOf('vendor', 'acme');
      const res = await emergency('admin', { targetUsername: 'vendor' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        errors: [emergencyMessages.alreadyHasAccess('Vendor Tester', 'Acme Imaging')],
      });
      expect(await grantOf('vendor', 'acme')).toEqual(before);
      expect(await newMails()).toEqual([]);
    });

    it('only admins grant it; BRMs, vendors and auditors are refused', async () => {
      for (const [client, status] of [
        ['primary', 403],
        ['vendor', 403],
        ['auditor', 403],
        ['anonymous', 401],
      ] as const) {
        expect((await emergency(client)).statusCode, client).toBe(status);
      }
      expect(await grantOf('outsider', 'acme')).toBeUndefined();
    });

    it('reminds the BRMs on day 3, then overdue on day 5 with InfoSec; acknowledged with a note', async () => {
      await emergency('admin', { hours: 12 });
      const requestId = await requestOf('Emergency Access');
      await newMails();
      advance(3 * 24 * HOUR);
      await sweep();
      const reminders = (m: { template: string }) => m.template === 'emergency-reminder';
      expect((await newMails()).filter(reminders)).toEqual([
        expect.objectContaining({ to: 'primary@example.test', template: 'emergency-reminder' }),
      ]);
      await sweep();
      expect((await newMails()).filter(reminders)).toEqual([]);
      advance(2 * 24 * HOUR);
      await sweep();
      expect(
        (await newMails())
          .filter((m) => m.template === 'emergency-overdue')
          .map((m) => m.to)
          .sort(),
      ).toEqual(['admin@example.test', 'auditor@example.test', 'primary@example.test']);
      // Acknowledge needs a note; another organization's BRM and the auditor are refused.
      const noNote = await decide('primary', requestId, 'APPROVE');
      expect(noNote.statusCode).toBe(400);
      expect(noNote.json()).toEqual({ errors: [emergencyMessages.noteRequired] });
      expect((await decide('globexbrm', requestId, 'APPROVE', 'seen')).statusCode).toBe(403);
      expect((await decide('auditor', requestId, 'APPROVE', 'seen')).statusCode).toBe(403);
      expect(
        (await decide('primary', requestId, 'APPROVE', 'Ticket checked with the vendor')).statusCode,
      ).toBe(200);
      expect((await auditActions(t, 'emergency.acknowledge')).at(-1)!.details).toMatchObject({
        note: 'Ticket checked with the vendor',
      });
      expect((await rowsOf('primary')).some((r) => r.requestId === requestId)).toBe(false);
    });

    it('"Remove now" ends the grant at once (BRM of the organization or admin)', async () => {
      await emergency('admin');
      const requestId = await requestOf('Emergency Access');
      await newMails();
      expect((await decide('globexbrm', requestId, 'DENY', 'not needed')).statusCode).toBe(403);
      expect((await decide('primary', requestId, 'DENY', 'Fixed already')).statusCode).toBe(200);
      expect(await grantOf('outsider', 'acme')).toBeUndefined();
      expect((await auditActions(t, 'emergency.end')).at(-1)!.details).toMatchObject({ reason: 'removed' });
      expect((await newMails()).filter((m) => m.template === 'emergency-ended')).toHaveLength(4);
      // The sweep at the hour finds nothing left to end.
      advance(72 * HOUR);
      await sweep();
      expect((await auditActions(t, 'emergency.end')).length).toBe(1);
    });

    it('an emergency grant and an approval of the same organization at once: one ordinary grant', async () => {
      const addAccess = await addRequest(t, 'Add Access', [[ids.acme!, 'pending']], {
        beneficiaryId: ids.outsider!,
      });
      const [granted, approved] = await Promise.all([
        emergency('admin'),
        decide('primary', addAccess, 'APPROVE'),
      ]);
      expect(approved.statusCode).toBe(200);
      expect([200, 409]).toContain(granted.statusCode);
      const grant = await grantOf('outsider', 'acme');
      expect(grant!.emergency_id).toBeNull();
      expect(new Date(grant!.expires_at).getTime()).toBeGreaterThan(START.getTime() + 100 * 24 * HOUR);
      const emergencies = await t.ctx.db.selectFrom('emergency_grants').selectAll().execute();
      if (granted.statusCode === 200) expect(emergencies.map((e) => e.end_reason)).toEqual(['replaced']);
      else expect(emergencies).toEqual([]);
      // Nothing ends at the emergency's hour.
      advance(72 * HOUR);
      await sweep();
      expect(await grantOf('outsider', 'acme')).toBeDefined();
    });
  });

  describe('reported departures (§10.2)', () => {
    it('a report goes to the BRMs at once and to InfoSec after 24 hours', async () => {
      const res = await report('vendor');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: departureReportMessages.thanks('Acme Imaging') });
      expect((await newMails()).map((m) => `${m.to} ${m.template}`)).toEqual([
        'primary@example.test departure-reported',
      ]);
      expect((await statusOf('colleague')).status).toBe('active');
      expect((await auditActions(t, 'departure.report')).at(-1)!.details).toMatchObject({ suspended: false });
      const row = (await rowsOf('primary')).find((r) => r.type === 'Departure Reported')!;
      expect(row).toMatchObject({ name: 'colleague', org: 'Acme Imaging', accessEnds: null });
      expect(row.departure).toMatchObject({
        reportedBy: 'Vendor Tester',
        leftOn: '2027-02-27',
        forwarded: false,
      });
      advance(24 * HOUR - 60_000);
      await sweep();
      expect(await auditActions(t, 'departure.forward')).toEqual([]);
      advance(60_000);
      await sweep();
      expect((await auditActions(t, 'departure.forward')).length).toBe(1);
      expect(
        (await newMails())
          .filter((m) => m.template === 'departure-forwarded')
          .map((m) => m.to)
          .sort(),
      ).toEqual(['admin@example.test', 'auditor@example.test']);
      await sweep();
      expect((await auditActions(t, 'departure.forward')).length).toBe(1);
      // Routing's own reminders and expiry leave the item alone.
      advance(30 * 24 * HOUR);
      await sweep();
      expect((await rowsOf('admin')).find((r) => r.type === 'Departure Reported')!.departure!.forwarded).toBe(
        true,
      );
    });

    it('high tier: the account is suspended at once and the report forwarded after 4 hours', async () => {
      expect((await report('vendor', { name: HIGH })).statusCode).toBe(200);
      expect(await statusOf('colleague')).toEqual({
        status: 'disabled',
        disabled_reason: 'departureReported',
      });
      expect((await auditActions(t, 'account.disable')).at(-1)!.details).toMatchObject({
        reason: 'departureReported',
      });
      advance(4 * HOUR);
      await sweep();
      expect((await auditActions(t, 'departure.forward')).length).toBe(1);
    });

    it('Confirm Departure removes the grant of that organization; the last one disables the account', async () => {
      await report('vendor');
      const requestId = await requestOf('Departure Reported');
      expect((await decide('primary', requestId, 'APPROVE')).statusCode).toBe(200);
      expect(await grantOf('colleague', 'acme')).toBeUndefined();
      expect(await grantOf('colleague', 'high')).toBeDefined();
      expect((await statusOf('colleague')).status).toBe('active');
      expect((await auditActions(t, 'departure.confirm')).length).toBe(1);
      // The high tier's report (account suspended), confirmed: no access left → §3.3 (no access).
      await report('vendor', { name: HIGH });
      const high = await requestOf('Departure Reported');
      expect((await decide('admin', high, 'APPROVE')).statusCode).toBe(200);
      expect(await statusOf('colleague')).toEqual({ status: 'disabled', disabled_reason: 'noAccess' });
    });

    it('Dismiss needs a reason and gives a suspended account back', async () => {
      await report('vendor', { name: HIGH });
      const requestId = await requestOf('Departure Reported');
      expect((await decide('primary', requestId, 'DENY')).statusCode).toBe(400);
      expect((await decide('primary', requestId, 'DENY', 'Still works with us')).statusCode).toBe(200);
      expect(await statusOf('colleague')).toEqual({ status: 'active', disabled_reason: null });
      expect((await auditActions(t, 'departure.dismiss')).length).toBe(1);
      expect(await grantOf('colleague', 'high')).toBeDefined();
    });

    it('only same-organization vendors; no self-report; no enumeration', async () => {
      const notFound = { errors: [departureReportMessages.notFound('Acme Imaging')] };
      const unknown = await report('vendor', { colleague: 'nobody@nowhere.example' });
      const elsewhere = await report('vendor', { colleague: 'outsider@example.test' });
      const byName = await report('vendor', { colleague: 'OUTSIDER' });
      for (const res of [unknown, elsewhere, byName]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(notFound);
      }
      await t.ctx.db.deleteFrom('rate_limits').execute();
      const self = await report('vendor', { colleague: 'vendor' });
      expect(self.statusCode).toBe(400);
      expect(self.json()).toEqual({ errors: [departureReportMessages.self] });
      const other = await report('outsider');
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual({ errors: [departureReportMessages.notYourOrganization('Acme Imaging')] });
      const future = await report('vendor', { leftOn: '2027-03-02' });
      expect(future.statusCode).toBe(400);
      for (const [client, status] of [
        ['primary', 403],
        ['admin', 403],
        ['auditor', 403],
        ['anonymous', 401],
      ] as const) {
        expect((await report(client)).statusCode, client).toBe(status);
      }
      expect((await auditActions(t, 'departure.report')).filter((e) => e.outcome === 'success')).toEqual([]);
      expect(await newMails()).toEqual([]);
    });

    it('at most 3 reports a day per reporter, with a clear message', async () => {
      for (let i = 0; i < 3; i++)
        expect((await report('vendor', { colleague: `x${i}@example.test` })).statusCode).toBe(404);
      const fourth = await report('vendor');
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toEqual({ errors: [departureReportMessages.tooMany] });
      expect(fourth.headers['retry-after']).toBeDefined();
    });

    it('BRMs of the organization and admins decide; others are refused', async () => {
      await report('vendor');
      const requestId = await requestOf('Departure Reported');
      expect((await decide('globexbrm', requestId, 'APPROVE')).statusCode).toBe(403);
      expect((await decide('auditor', requestId, 'APPROVE')).statusCode).toBe(403);
      expect((await decide('vendor', requestId, 'APPROVE')).statusCode).toBe(403);
      expect(await grantOf('colleague', 'acme')).toBeDefined();
    });

    it('two people confirm and dismiss the same report at once: exactly one effect', async () => {
      await report('vendor', { name: HIGH });
      const requestId = await requestOf('Departure Reported');
      const answers = await Promise.all([
        decide('primary', requestId, 'APPROVE'),
        decide('admin', requestId, 'DENY', 'Not true'),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.statusCode === 409)!.json()).toEqual({
        errors: [approvalMessages.alreadyDecided],
      });
      const decisions = [
        ...(await auditActions(t, 'departure.confirm')),
        ...(await auditActions(t, 'departure.dismiss')),
      ];
      expect(decisions).toHaveLength(1);
      const reportRow = await t.ctx.db.selectFrom('departure_reports').selectAll().executeTakeFirstOrThrow();
      expect(reportRow.status).toBe(decisions[0]!.action === 'departure.confirm' ? 'confirmed' : 'dismissed');
      expect((await grantOf('colleague', 'high')) === undefined).toBe(reportRow.status === 'confirmed');
    });
  });
});
