import { approvalMessages, routingMessages, type PendingApproval } from '@pra/contracts';
import { approveOrDeny, getPendingApprovals } from '@pra/contracts/endpoints/approvals';
import {
  endDelegation,
  getDelegation,
  getRoutingOverview,
  setAssignmentKind,
  setDelegation,
} from '@pra/contracts/endpoints/approval-routing';
import { checkEmailInUse, submitRegistration } from '@pra/contracts/endpoints/registration';
import { getPendingAccess, requestAccess } from '@pra/contracts/endpoints/access';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../platform/clock';
import { runApprovalRouting } from '../../identity/approval-routing-sweep';
import { testDatabaseKinds } from '../../../test/support/databases';
import {
  addStaff,
  assignBrms,
  clearPendingAndDelegations,
  mailsSince,
  setEmail,
  signInAll,
  type StaffFlags,
} from '../../../test/support/brm-world';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, auditActions } from '../../../test/support/world';

// Approval routing (GOVERNANCE.md §5) with the test clock: deadlines, reminders, forwards, expiry,
// primary and backup BRMs, Away and Backup delegations; each milestone's mails exactly once.

const START = new Date('2027-03-01T14:00:00Z'); // 09:00 in New York
const INFOSEC = 'infosec@hospital.test';

describe.each(testDatabaseKinds)('approval routing on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(START);
  const ids: Record<string, string> = {};
  const clients: Record<string, TestClient> = {};
  /** The mails queued since the last call. */
  const newMails = mailsSince(() => t);
  const sweep = () => runApprovalRouting(t.ctx);
  const anonymous = async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    return client;
  };
  async function register(email: string, org = 'Acme Imaging') {
    const res = await (
      await anonymous()
    ).call(submitRegistration, {
      body: { firstName: 'Reg', lastName: 'Istrant', email, org },
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  }
  const listOf = async (name: string): Promise<PendingApproval[]> =>
    (await clients[name]!.call(getPendingApprovals)).json<{ pendingApprovals: PendingApproval[] }>()
      .pendingApprovals;
  const rowOf = async (name: string, requestId: string) =>
    (await listOf(name)).find((p) => p.requestId === requestId);
  /** Two people approve one registration at the same moment: one wins, one account, the other 409. */
  async function approveAtOnce(names: string[], requestId: string, email: string) {
    const answers = await Promise.all(
      names.map((name) => clients[name]!.call(approveOrDeny, { body: { decision: 'APPROVE', requestId } })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json()).toEqual({
      errors: [approvalMessages.alreadyDecided],
    });
    const accounts = await t.ctx.db.selectFrom('accounts').select('id').where('email', '=', email).execute();
    expect(accounts).toHaveLength(1);
  }
  const at = (days: number, hours = 0) =>
    clock.set(new Date(START.getTime() + (days * 24 + hours) * 3_600_000));

  beforeAll(async () => {
    t = await createTestApp(kind, { INFOSEC_EMAIL: INFOSEC }, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    ids.globex = await addOrganization(t, 'Globex Health IT', ['globex.example']);
    ids.orphan = await addOrganization(t, 'Orphan Devices', ['orphan.example']);
    await t.ctx.db
      .updateTable('organizations')
      .set({ risk_tier: 'high' })
      .where('id', '=', ids.globex)
      .execute();
    const people: [string, StaffFlags][] = [
      ['primary', { isEmployeeBrm: true }],
      ['backup', { isEmployeeBrm: true }],
      ['deleg', { isEmployeeBrm: true }],
      ['other', { isEmployeeBrm: true }],
      ['globexbrm', { isEmployeeBrm: true }],
      ['admin', { isAdmin: true }],
    ];
    await addStaff(t, ids, people);
    ids.vendor = await createAccount(t, { username: 'vendor' });
    await setEmail(t, ids.vendor, 'vendor@acme.example');
    await assignBrms(t, ids, [
      ['primary', 'acme', 'primary'],
      ['backup', 'acme', 'backup'],
      ['deleg', 'acme', 'backup'],
      ['deleg', 'globex', 'primary'],
      ['other', 'globex', 'primary'],
      ['globexbrm', 'globex', 'primary'],
    ]);
    await signInAll(t, clients, [...people.map(([n]) => n), 'vendor']);
  });
  beforeEach(async () => {
    // Each test starts with nothing pending, no delegation, the clock at START and no mail unseen.
    await clearPendingAndDelegations(t);
    await t.ctx.db.deleteFrom('rate_limits').execute();
    clock.set(START);
    await newMails();
  });
  afterAll(async () => t?.close());

  it('gives a registration its tier’s deadline and tells the registrant when it expires', async () => {
    const res = await register('deadline@acme.example');
    expect(res).toMatchObject({ expiresOn: '2027-03-15', expiresAt: '2027-03-16T03:59:59.000Z' });
    const row = (await rowOf('primary', res.requestID))!;
    expect(row).toMatchObject({ dueInDays: 14, forwarded: false, onBehalfOf: null, canDecide: true });
    expect(row.history).toEqual([{ at: START.toISOString(), event: 'sent', to: 'Primary Tester' }]);
    const mails = await newMails();
    expect(mails.map((m) => [m.to, m.template]).sort()).toEqual([
      ['deadline@acme.example', 'registration-received'],
      ['primary@example.test', 'registration-awaiting-decision'],
    ]);
  });

  it('reminds on days 3 and 7, forwards on day 8 to the backups, expires on day 14, each mail once', async () => {
    const { requestID } = await register('steps@acme.example');
    await newMails();
    at(2, 23);
    await sweep();
    expect(await newMails()).toEqual([]);

    at(3);
    expect((await sweep()).reminded).toBe(1);
    const first = await newMails();
    expect(first.map((m) => [m.to, m.template])).toEqual([['primary@example.test', 'request-reminder']]);
    expect(first[0]!.subject).toBe(
      "Reminder: Reg Istrant's request for Acme Imaging awaits your decision (expires March 15, 2027)",
    );
    await sweep();
    expect(await newMails()).toEqual([]);

    at(7);
    await sweep();
    const second = await newMails();
    expect(second.map((m) => m.to)).toEqual(['primary@example.test']);
    expect(second[0]!.text).toContain('forwarded on March 9, 2027');

    // Before the forward a backup BRM neither lists nor decides it.
    expect(await rowOf('backup', requestID)).toBeUndefined();
    const early = await clients.backup!.call(approveOrDeny, {
      body: { decision: 'APPROVE', requestId: requestID },
    });
    expect(early.statusCode).toBe(403);

    at(8);
    expect((await sweep()).forwarded).toBe(1);
    const forwarded = await newMails();
    expect(forwarded.map((m) => [m.to, m.template]).sort()).toEqual([
      ['backup@example.test', 'request-forwarded'],
      ['deleg@example.test', 'request-forwarded'],
    ]);
    expect(forwarded[0]!.subject).toBe(
      'Action required: approve or deny forwarded request by March 15, 2027',
    );
    const row = (await rowOf('backup', requestID))!;
    expect(row).toMatchObject({ forwarded: true, canDecide: true, dueInDays: 6 });
    expect(row.history.map((h) => h.event)).toEqual(['sent', 'reminded', 'reminded', 'forwarded']);
    expect((await rowOf('primary', requestID))!.forwarded).toBe(false);
    await sweep();
    expect(await newMails()).toEqual([]);

    at(14, 13); // 2027-03-15 23:00 in New York: not yet
    await sweep();
    expect(await newMails()).toEqual([]);
    at(14, 14);
    expect((await sweep()).expired).toBe(1);
    const expired = await newMails();
    expect(expired.map((m) => [m.to, m.template]).sort()).toEqual([
      ['backup@example.test', 'request-expired-approvers'],
      ['deleg@example.test', 'request-expired-approvers'],
      ['primary@example.test', 'request-expired-approvers'],
      ['steps@acme.example', 'request-expired'],
    ]);
    expect(expired.find((m) => m.to === 'steps@acme.example')!.subject).toBe(
      'Your request for Acme Imaging has expired',
    );
    const request = await t.ctx.db
      .selectFrom('requests')
      .select('status')
      .where('id', '=', requestID)
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('expired');
    expect(await rowOf('primary', requestID)).toBeUndefined();
    await sweep();
    expect(await newMails()).toEqual([]);
    expect(
      (await auditActions(t, 'request.expire')).filter((e) => e.details.requestId === requestID),
    ).toHaveLength(1);

    // The registrant may register again.
    const use = await (await anonymous()).call(checkEmailInUse, { body: { email: 'steps@acme.example' } });
    expect(use.json()).toBe('available');
    await register('steps@acme.example');
  });

  it('after a gap sends only the latest due milestone (the forward), and records the reminders as skipped', async () => {
    const { requestID } = await register('gap@acme.example');
    await newMails();
    at(10);
    const result = await sweep();
    expect(result).toMatchObject({ reminded: 0, forwarded: 1, expired: 0 });
    expect((await newMails()).map((m) => m.template)).toEqual(['request-forwarded', 'request-forwarded']);
    const item = (await rowOf('backup', requestID))!;
    const notices = await t.ctx.db
      .selectFrom('governance_notices')
      .select(['milestone', 'skipped'])
      .where('subject_id', '=', item.workItemId)
      .orderBy('milestone')
      .execute();
    expect(notices).toEqual([
      { milestone: 'forward', skipped: false },
      { milestone: 'remind-1', skipped: true },
      { milestone: 'remind-2', skipped: true },
    ]);
    await sweep();
    expect(await newMails()).toEqual([]);
  });

  it('uses the high tier’s days: reminder on day 2, forward on day 4, deadline after 7 days', async () => {
    const res = await register('high@globex.example', 'Globex Health IT');
    expect(res.expiresOn).toBe('2027-03-08');
    await newMails();
    at(2);
    await sweep();
    expect((await newMails()).map((m) => m.to).sort()).toEqual([
      'deleg@example.test',
      'globexbrm@example.test',
      'other@example.test',
    ]);
    at(4);
    await sweep();
    // No backup for Globex: the InfoSec team.
    expect((await newMails()).map((m) => [m.to, m.template])).toEqual([[INFOSEC, 'request-forwarded']]);
    expect((await rowOf('admin', res.requestID))!.forwarded).toBe(true);
  });

  it('forwards at once to InfoSec an item whose organization has no primary BRM', async () => {
    const { requestID } = await register('orphan@orphan.example', 'Orphan Devices');
    expect((await newMails()).map((m) => m.to).sort()).toEqual([INFOSEC, 'orphan@orphan.example']);
    await sweep();
    expect((await newMails()).map((m) => [m.to, m.template])).toEqual([[INFOSEC, 'request-forwarded']]);
    const overview = (await clients.admin!.call(getRoutingOverview)).json();
    expect(overview.unreachable.map((o) => o.name)).toEqual(['Orphan Devices']);
    expect((await rowOf('admin', requestID))!.canDecide).toBe(true);
  });

  it('lets one of two approvers deciding a forwarded item at once win; the other hears it was decided', async () => {
    const { requestID } = await register('race@acme.example');
    at(8);
    await sweep();
    await approveAtOnce(['primary', 'backup'], requestID, 'race@acme.example');
  });

  describe('Away and Backup', () => {
    /** Sets Away and Backup; the body as sent (some deliberately wrong). */
    const away = (name: string, body: Record<string, unknown>) =>
      clients[name]!.call(setDelegation, { body: body as never });

    it('refuses oneself, a BRM of no shared organization, a period over 90 days or in the past', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ delegate: ids.primary, from: '2027-03-01', until: '2027-03-05' }, routingMessages.self],
        [{ delegate: ids.globexbrm, from: '2027-03-01', until: '2027-03-05' }, routingMessages.notSharing],
        [{ delegate: ids.deleg, from: '2027-03-01', until: '2027-05-30' }, routingMessages.tooLong],
        [{ delegate: ids.deleg, from: '2027-02-28', until: '2027-03-05' }, routingMessages.fromInPast],
        [{ delegate: ids.deleg, from: '2027-03-05', until: '2027-03-01' }, routingMessages.untilBeforeFrom],
      ];
      for (const [body, message] of cases) {
        const res = await away('primary', body);
        expect(res.statusCode, message).toBe(400);
        expect(res.json()).toEqual({ errors: [message] });
      }
      expect(
        (await away('primary', { delegate: ids.deleg, from: '2027-03-01', until: '2027-05-29' })).statusCode,
      ).toBe(200);
      expect(
        (await clients.primary!.call(getDelegation))
          .json()
          .choices.map((c) => c.name)
          .sort(),
      ).toEqual(['Backup Tester', 'Deleg Tester']);
    });

    it('moves new and pending items to the delegate, who decides on the delegator’s behalf; one level only', async () => {
      const pending = await register('pending@acme.example');
      expect(await rowOf('deleg', pending.requestID)).toBeUndefined();
      await newMails();
      clock.advance('PT1H');

      const res = await away('primary', {
        delegate: ids.deleg,
        from: '2027-03-01',
        until: '2027-03-10',
        reason: 'Leave',
        movePending: true,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().delegation).toMatchObject({
        status: 'active',
        delegateName: 'Deleg Tester',
        until: '2027-03-10',
      });
      const started = await newMails();
      expect(started.map((m) => m.to).sort()).toEqual(['deleg@example.test', 'primary@example.test']);
      expect(started[0]!.subject).toBe(
        'Primary Tester asked you to handle their approvals from March 1, 2027 to March 10, 2027',
      );
      await sweep();
      expect(await newMails()).toEqual([]); // the start is announced once

      const moved = (await rowOf('deleg', pending.requestID))!;
      expect(moved).toMatchObject({ onBehalfOf: 'Primary Tester', canDecide: true });
      expect(moved.history.at(-1)).toMatchObject({ event: 'delegated', to: 'Deleg Tester' });

      // A new access request reaches the delegate too.
      const ask = await clients.vendor!.call(requestAccess, {
        body: {
          selectedNames: ['PRA - Vendor Access - Acme Imaging - BR'],
          justification: 'MRI upgrade',
          beneficiaryUsername: 'vendor',
        },
      });
      expect(ask.statusCode).toBe(200);
      const asked = await newMails();
      expect(asked.map((m) => m.to).sort()).toEqual(['deleg@example.test', 'primary@example.test']);
      const [pendingAccess] = (
        await clients.vendor!.call(getPendingAccess, { query: { username: 'vendor' } })
      ).json();
      expect(pendingAccess!.items[0]).toMatchObject({
        submittedOn: '2027-03-01',
        expiresOn: '2027-03-15',
        remindedOn: null,
      });

      // One level: the delegate's own delegation does not pass the delegator's items on.
      expect(
        (await away('deleg', { delegate: ids.backup, from: '2027-03-01', until: '2027-03-10' })).statusCode,
      ).toBe(200);
      expect(await rowOf('backup', pending.requestID)).toBeUndefined();

      const access = (await listOf('deleg')).find((p) => p.type === 'Add Access')!;
      const decided = await clients.deleg!.call(approveOrDeny, {
        body: { decision: 'APPROVE', requestId: access.requestId },
      });
      expect(decided.statusCode).toBe(200);
      const mail = (await newMails()).find((m) => m.to === 'vendor@acme.example')!;
      expect(mail.subject).toContain('approved by Deleg Tester on behalf of Primary Tester');
      const audit = (await auditActions(t, 'request.approve')).find(
        (e) => e.details.requestId === access.requestId,
      )!;
      expect(audit.details.onBehalfOf).toBe('Primary Tester');
      expect(audit.actor_username).toBe('deleg');

      // End Now: the items go back.
      expect((await clients.primary!.call(endDelegation)).statusCode).toBe(200);
      expect((await newMails()).map((m) => [m.to, m.subject]).sort()).toEqual([
        ['deleg@example.test', 'Your delegation has ended'],
        ['primary@example.test', 'Your delegation has ended'],
      ]);
      expect(await rowOf('deleg', pending.requestID)).toBeUndefined();
      expect((await clients.primary!.call(endDelegation)).statusCode).toBe(404);
    });

    it('without "Also move my pending items" hands over only items submitted afterwards', async () => {
      const before = await register('before@acme.example');
      clock.advance('PT1M');
      expect(
        (
          await away('primary', {
            delegate: ids.deleg,
            from: '2027-03-01',
            until: '2027-03-03',
            movePending: false,
          })
        ).statusCode,
      ).toBe(200);
      clock.advance('PT1M');
      const after = await register('after@acme.example');
      expect(await rowOf('deleg', before.requestID)).toBeUndefined();
      expect((await rowOf('deleg', after.requestID))!.onBehalfOf).toBe('Primary Tester');
    });

    it('starts a scheduled delegation on its day and ends it when the period is over, mailing both once', async () => {
      expect(
        (await away('primary', { delegate: 'infosec', from: '2027-03-03', until: '2027-03-04' })).statusCode,
      ).toBe(200);
      expect(await newMails()).toEqual([]);
      at(2, 10); // 2027-03-03 in New York
      expect((await sweep()).delegationsStarted).toBe(1);
      expect((await newMails()).map((m) => m.to).sort()).toEqual([INFOSEC, 'primary@example.test']);
      await sweep();
      expect(await newMails()).toEqual([]);
      at(4, 10);
      expect((await sweep()).delegationsEnded).toBe(1);
      expect((await newMails()).map((m) => m.to).sort()).toEqual([INFOSEC, 'primary@example.test']);
      await sweep();
      expect(await newMails()).toEqual([]);
      expect((await clients.primary!.call(getDelegation)).json().delegation).toBeNull();
    });

    it('ends the delegation when the delegate no longer shares an organization', async () => {
      const { requestID } = await register('roleloss@acme.example');
      await away('primary', { delegate: ids.backup, from: '2027-03-01', until: '2027-03-20' });
      expect((await rowOf('backup', requestID))!.onBehalfOf).toBe('Primary Tester');
      await newMails();
      await t.ctx.db.deleteFrom('brm_assignments').where('account_id', '=', ids.backup!).execute();
      expect((await sweep()).delegationsEnded).toBe(1);
      expect((await newMails()).map((m) => m.subject)).toEqual([
        'Your delegation has ended',
        'Your delegation has ended',
      ]);
      expect(await rowOf('backup', requestID)).toBeUndefined();
      const ended = await auditActions(t, 'delegation.end');
      expect(ended.at(-1)!.details.reason).toBe('delegateNotBrm');
      await t.ctx.db
        .insertInto('brm_assignments')
        .values({ account_id: ids.backup!, organization_id: ids.acme!, kind: 'backup' })
        .execute();
    });

    it('lets only one of delegate and delegator deciding at once take effect', async () => {
      const { requestID } = await register('both@acme.example');
      await away('primary', { delegate: ids.deleg, from: '2027-03-01', until: '2027-03-05' });
      await approveAtOnce(['primary', 'deleg'], requestID, 'both@acme.example');
      expect(
        (await auditActions(t, 'request.approve')).filter((e) => e.details.requestId === requestID),
      ).toHaveLength(1);
    });
  });

  describe('every role against the new calls', () => {
    const roles = ['vendor', 'primary', 'globexbrm', 'backup', 'deleg', 'admin'] as const;

    it('Away and Backup: BRMs only; anonymous 401', async () => {
      const anon = await anonymous();
      expect((await anon.call(getDelegation)).statusCode).toBe(401);
      expect(
        (
          await anon.call(setDelegation, {
            body: { delegate: 'infosec', from: '2027-03-01', until: '2027-03-02' },
          })
        ).statusCode,
      ).toBe(401);
      expect((await anon.call(endDelegation)).statusCode).toBe(401);
      for (const role of roles) {
        const expected = role === 'vendor' || role === 'admin' ? 403 : 200;
        expect((await clients[role]!.call(getDelegation)).statusCode, role).toBe(expected);
      }
    });

    it('primary/backup kinds and the overview: admins only; audited', async () => {
      const anon = await anonymous();
      const params = { id: ids.other!, orgId: ids.globex! };
      expect((await anon.call(setAssignmentKind, { params, body: { kind: 'backup' } })).statusCode).toBe(401);
      expect((await anon.call(getRoutingOverview)).statusCode).toBe(401);
      for (const role of roles.filter((r) => r !== 'admin')) {
        expect(
          (await clients[role]!.call(setAssignmentKind, { params, body: { kind: 'backup' } })).statusCode,
          role,
        ).toBe(403);
        expect((await clients[role]!.call(getRoutingOverview)).statusCode, role).toBe(403);
      }
      expect(
        (await clients.admin!.call(setAssignmentKind, { params, body: { kind: 'backup' } })).statusCode,
      ).toBe(200);
      expect(
        (await clients.admin!.call(setAssignmentKind, { params, body: { kind: 'backup' } })).statusCode,
      ).toBe(200);
      expect(
        (await auditActions(t, 'brm.backup-assign')).filter((e) => e.target_id === ids.other),
      ).toHaveLength(1);
      const overview = (await clients.admin!.call(getRoutingOverview)).json();
      expect(overview.assignments).toContainEqual({
        personId: ids.other,
        organizationId: ids.globex,
        organization: 'Globex Health IT',
        kind: 'backup',
      });
      expect(
        (await clients.admin!.call(setAssignmentKind, { params, body: { kind: 'primary' } })).statusCode,
      ).toBe(200);
      expect(
        (await auditActions(t, 'brm.backup-remove')).filter((e) => e.target_id === ids.other),
      ).toHaveLength(1);
      const vendorAsBrm = await clients.admin!.call(setAssignmentKind, {
        params: { id: ids.vendor!, orgId: ids.acme! },
        body: { kind: 'backup' },
      });
      expect(vendorAsBrm.statusCode).toBe(404);
    });

    it('a vendor never decides, not even its own request', async () => {
      const ask = await clients.vendor!.call(requestAccess, {
        body: {
          selectedNames: ['PRA - Vendor Access - Globex Health IT - BR'],
          justification: 'x',
          beneficiaryUsername: 'vendor',
        },
      });
      // Globex does not own the vendor's domain: refused, or pending; either way the vendor cannot decide.
      const requestId =
        ask.statusCode === 200
          ? (await listOf('admin')).find((p) => p.type === 'Add Access')?.requestId
          : undefined;
      const res = await clients.vendor!.call(approveOrDeny, {
        body: { decision: 'APPROVE', requestId: requestId ?? '00000000-0000-4000-8000-000000000000' },
      });
      expect(res.statusCode).toBe(403);
    });
  });
});
