import {
  accessExpiryMessages,
  accessMessages,
  approvalMessages,
  roleName,
  type CurrentRole,
  type PendingAccessRequest,
  type PendingApproval,
} from '@pra/contracts';
import {
  extendAccess,
  getCurrentAccess,
  getPendingAccess,
  removeAccess,
  setAccessEnd,
} from '@pra/contracts/endpoints/access';
import { approveOrDeny, getPendingApprovals } from '@pra/contracts/endpoints/approvals';
import { setDelegation } from '@pra/contracts/endpoints/approval-routing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
import { TestClock } from '../../platform/clock';
import { addDays, endOfLocalDay, localInstant } from '../../platform/local-time';
import { sweepNow } from '../../identity/governance/sweeper';
import { ACCESS_ENDED } from '../../identity/roles';

// Time-limited access, the vendor's and the BRM's calls (GOVERNANCE.md §3.2, §3.7): the Current
// Access fields, an Extend Access request and its decision on the Approvals page, and a BRM's
// "Change end date"; every message, every role, bad input and two people acting at once.

const ZONE = 'America/New_York';
const TODAY = '2027-03-01';
const morningOf = (date: string) => localInstant(date, { hour: 10, minute: 0, second: 0 }, ZONE);
const ACME = roleName('Acme Imaging');
const GLOBEX = roleName('Globex Health IT');
const INITECH = roleName('Initech Devices');
const DORMANT = roleName('Dormant Labs');
/** Acme's grant ends on this date at the start of each test. */
const ACME_END = '2027-03-20';
/** The standard tier: granted for 180 days, at most 365 days from today. */
const MAX = addDays(TODAY, 365);

describe.each(testDatabaseKinds)('time-limited access calls on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(morningOf(TODAY));
  const ids: Record<string, string> = {};
  const clients: Record<string, TestClient> = {};
  /** The mails queued since the last call. */
  const newMails = mailsSince(() => t);
  const grantOf = (account: string, org: string) =>
    t.ctx.db
      .selectFrom('role_grants')
      .selectAll()
      .where('account_id', '=', ids[account]!)
      .where('organization_id', '=', ids[org]!)
      .executeTakeFirst();
  const setGrant = async (account: string, org: string, endsOn: string) => {
    await t.ctx.db
      .deleteFrom('role_grants')
      .where('account_id', '=', ids[account]!)
      .where('organization_id', '=', ids[org]!)
      .execute();
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: ids[account]!,
        organization_id: ids[org]!,
        granted_by: ids.primary!,
        sponsor_id: ids.primary!,
        request_item_id: null,
        expires_at: endOfLocalDay(endsOn, ZONE),
      })
      .execute();
  };
  const extend = (client: string, body: Record<string, unknown>) =>
    clients[client]!.call(extendAccess, { body: body as never });
  const ask = (until = '2027-06-01', name = ACME) =>
    extend('vendor', { name, requestedUntil: until, justification: 'Phase two of the PACS upgrade' });
  const decide = (client: string, requestId: string, extra: Record<string, unknown> = {}) =>
    clients[client]!.call(approveOrDeny, { body: { decision: 'APPROVE', requestId, ...extra } as never });
  const setEnd = (client: string, body: Record<string, unknown>) =>
    clients[client]!.call(setAccessEnd, { body: body as never });
  const current = async (client = 'vendor', username = 'vendor') =>
    (await clients[client]!.call(getCurrentAccess, { query: { username } })).json<CurrentRole[]>();
  const approvalRow = async (client: string, requestId: string) =>
    (await clients[client]!.call(getPendingApprovals))
      .json<{ pendingApprovals: PendingApproval[] }>()
      .pendingApprovals.find((p) => p.requestId === requestId);
  const itemOf = (requestId: string) =>
    t.ctx.db
      .selectFrom('request_items')
      .selectAll()
      .where('request_id', '=', requestId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    ids.globex = await addOrganization(t, 'Globex Health IT', ['acme.example']);
    ids.initech = await addOrganization(t, 'Initech Devices', ['acme.example']);
    ids.dormant = await addOrganization(t, 'Dormant Labs', ['acme.example']);
    const people: [string, StaffFlags][] = [
      ['primary', { isEmployeeBrm: true }],
      ['backup', { isEmployeeBrm: true }],
      ['deleg', { isEmployeeBrm: true }],
      ['globexbrm', { isEmployeeBrm: true }],
      ['admin', { isAdmin: true }],
      ['auditor', { isAdmin: true, isEmployeeBrm: true }],
    ];
    await addStaff(t, ids, people);
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', ids.auditor!).execute();
    for (const name of ['vendor', 'other']) {
      ids[name] = await createAccount(t, { username: name });
      await setEmail(t, ids[name], `${name}@acme.example`);
    }
    await assignBrms(t, ids, [
      ['primary', 'acme', 'primary'],
      ['primary', 'dormant', 'primary'],
      ['backup', 'acme', 'backup'],
      ['deleg', 'acme', 'backup'],
      ['globexbrm', 'globex', 'primary'],
    ]);
    await signInAll(t, clients, [...people.map(([n]) => n), 'vendor', 'other']);
    clients.anonymous = new TestClient(t.app);
    await clients.anonymous.fetchCsrf();
  });
  beforeEach(async () => {
    clock.set(morningOf(TODAY));
    await clearPendingAndDelegations(t);
    await t.ctx.db.updateTable('accounts').set({ status: 'active', disabled_reason: null }).execute();
    await t.ctx.db.updateTable('organizations').set({ is_active: true }).execute();
    await t.ctx.db.deleteFrom('role_grants').execute();
    await setGrant('vendor', 'acme', ACME_END);
    await setGrant('vendor', 'globex', '2027-08-01');
    await setGrant('vendor', 'dormant', '2027-04-01');
    await setGrant('other', 'acme', '2027-05-01');
    await newMails();
  });
  afterAll(async () => t?.close());

  describe('Current Access', () => {
    it('gives each role its end, days left, sponsor, pending extension and the policy’s dates', async () => {
      const rows = await current();
      expect(rows.map((r) => r.display)).toEqual(['Acme Imaging', 'Dormant Labs', 'Globex Health IT']);
      expect(rows[0]).toMatchObject({
        name: ACME,
        endsOn: ACME_END,
        daysLeft: 19,
        sponsor: { name: 'Primary Tester', email: 'primary@example.test' },
        extensionPending: false,
        defaultEndsOn: addDays(TODAY, 180),
        maxEndsOn: MAX,
      });
      await t.ctx.db
        .updateTable('organizations')
        .set({ contract_ends_on: '2027-09-30' })
        .where('id', '=', ids.acme!)
        .execute();
      expect((await current())[0]).toMatchObject({ defaultEndsOn: '2027-08-28', maxEndsOn: '2027-09-30' });
      await t.ctx.db
        .updateTable('organizations')
        .set({ contract_ends_on: null })
        .where('id', '=', ids.acme!)
        .execute();
      // A BRM sees only the roles of its organizations.
      expect((await current('primary')).map((r) => r.display)).toEqual(['Acme Imaging', 'Dormant Labs']);
    });
  });

  describe('POST /api/vendor/access/extend', () => {
    it('files one Extend Access request, shows it pending, audits it and mails the approvers', async () => {
      const res = await ask();
      expect(res.statusCode).toBe(200);
      const { requestId } = res.json();
      const item = await itemOf(requestId);
      expect(item).toMatchObject({ operation: 'Extend', status: 'pending' });
      expect(new Date(item.requested_until!)).toEqual(endOfLocalDay('2027-06-01', ZONE));
      expect((await current())[0]!.extensionPending).toBe(true);
      const pending = (await clients.vendor!.call(getPendingAccess, { query: { username: 'vendor' } })).json<
        PendingAccessRequest[]
      >();
      expect(pending).toEqual([
        {
          id: requestId,
          items: [
            expect.objectContaining({
              display: 'Acme Imaging',
              operation: 'Extend',
              owner: 'vendor',
              requestedUntilOn: '2027-06-01',
              submittedOn: TODAY,
              expiresOn: addDays(TODAY, 14),
            }),
          ],
        },
      ]);
      const audit = (await auditActions(t, 'extension.request')).find(
        (e) => e.details.requestId === requestId,
      );
      expect(audit).toMatchObject({
        actor_username: 'vendor',
        organization_id: ids.acme,
        details: { from: ACME_END, to: '2027-06-01' },
      });
      const mails = await newMails();
      // The organization's primary BRM (backups only once forwarded).
      expect(mails.map((m) => [m.to, m.template])).toEqual([['primary@example.test', 'extension-requested']]);
      expect(mails[0]!.subject).toBe(
        'Action required: extension requested by Vendor Tester for Acme Imaging until 2027-06-01',
      );
      expect(mails[0]!.text).toContain('Justification: Phase two of the PACS upgrade');
      // A pending extension neither blocks nor counts as a removal of another role.
      expect(
        (
          await clients.vendor!.call(removeAccess, {
            body: { selectedNames: [GLOBEX], justification: 'done', beneficiaryUsername: 'vendor' },
          })
        ).statusCode,
      ).toBe(200);
    });

    it('mails an active delegate too', async () => {
      expect(
        (
          await clients.primary!.call(setDelegation, {
            body: { delegate: ids.deleg!, from: TODAY, until: '2027-03-10' },
          })
        ).statusCode,
      ).toBe(200);
      await newMails();
      expect((await ask()).statusCode).toBe(200);
      expect((await newMails()).map((m) => m.to).sort()).toEqual([
        'deleg@example.test',
        'primary@example.test',
      ]);
    });

    it('refuses with each of the dialog’s messages, changing nothing', async () => {
      expect((await ask()).statusCode).toBe(200);
      const before = (await auditActions(t, 'extension.request')).length;
      await newMails();
      const cases: [() => Promise<{ statusCode: number; json: () => unknown }>, number, string][] = [
        [() => ask('2027-07-01'), 409, accessExpiryMessages.extensionPending],
        [() => ask(ACME_END, GLOBEX), 400, accessExpiryMessages.extensionDate('2027-08-01', MAX)],
        [() => ask('2027-07-31', GLOBEX), 400, accessExpiryMessages.extensionDate('2027-08-01', MAX)],
        [() => ask(addDays(MAX, 1), GLOBEX), 400, accessExpiryMessages.extensionDate('2027-08-01', MAX)],
        [() => ask('2027-06-01', INITECH), 409, accessExpiryMessages.accessEnded('Initech Devices')],
        [() => ask('2027-06-01', roleName('Nowhere')), 400, accessMessages.unknownRole(roleName('Nowhere'))],
      ];
      for (const [call, status, message] of cases) {
        const res = await call();
        expect(res.statusCode, message).toBe(status);
        expect(res.json(), message).toEqual({ errors: [message] });
      }
      await t.ctx.db
        .updateTable('organizations')
        .set({ is_active: false })
        .where('id', '=', ids.dormant!)
        .execute();
      const inactive = await ask('2027-06-01', DORMANT);
      expect(inactive.statusCode).toBe(409);
      expect(inactive.json()).toEqual({
        errors: [accessExpiryMessages.organizationInactive('Dormant Labs')],
      });
      expect((await auditActions(t, 'extension.request')).length).toBe(before);
      expect(await newMails()).toEqual([]);
    });

    it('refuses bad input with 400', async () => {
      const bodies = [
        { name: ACME, requestedUntil: '2027-06-01' },
        { name: ACME, requestedUntil: '2027-06-01', justification: '' },
        { name: ACME, requestedUntil: '2027-06-01', justification: 'x'.repeat(256) },
        { name: ACME, requestedUntil: '2027-02-30', justification: 'why' },
        { name: ACME, requestedUntil: '06/01/2027', justification: 'why' },
        { name: '', requestedUntil: '2027-06-01', justification: 'why' },
        { name: ACME, requestedUntil: '2027-06-01', justification: 'why', beneficiaryUsername: 'other' },
      ];
      for (const body of bodies)
        expect((await extend('vendor', body)).statusCode, JSON.stringify(body)).toBe(400);
      expect(
        (await extend('vendor', { name: ACME, requestedUntil: '2027-06-01', justification: 'x'.repeat(255) }))
          .statusCode,
      ).toBe(200);
    });

    it('is the vendor’s own call: every other role is refused', async () => {
      const body = { name: ACME, requestedUntil: '2027-06-01', justification: 'why' };
      for (const role of ['primary', 'backup', 'deleg', 'globexbrm', 'admin', 'auditor']) {
        expect((await extend(role, body)).statusCode, role).toBe(403);
      }
      expect((await extend('anonymous', body)).statusCode).toBe(401);
      expect(
        await t.ctx.db
          .selectFrom('request_items')
          .where('operation', '=', 'Extend')
          .where('status', '=', 'pending')
          .selectAll()
          .execute(),
      ).toEqual([]);
    });

    it('two requests at once: one is filed, the other is told one is pending', async () => {
      const answers = await Promise.all([ask('2027-06-01'), ask('2027-07-01')]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.statusCode === 409)!.json()).toEqual({
        errors: [accessExpiryMessages.extensionPending],
      });
      const items = await t.ctx.db
        .selectFrom('request_items')
        .where('operation', '=', 'Extend')
        .where('status', '=', 'pending')
        .selectAll()
        .execute();
      expect(items).toHaveLength(1);
    });

    it('is cancelled when the grant is removed ("Access ended")', async () => {
      const { requestId } = (await ask('2027-06-01')).json();
      const res = await clients.primary!.call(removeAccess, {
        body: { selectedNames: [ACME], justification: 'Contract over', beneficiaryUsername: 'vendor' },
      });
      expect(res.statusCode).toBe(200);
      expect(await itemOf(requestId)).toMatchObject({ status: 'cancelled', decision_comment: ACCESS_ENDED });
      const request = await t.ctx.db
        .selectFrom('requests')
        .select('status')
        .where('id', '=', requestId)
        .executeTakeFirstOrThrow();
      expect(request.status).toBe('cancelled');
    });
  });

  describe('deciding an Extend Access item', () => {
    it('shows it on the Approvals page with the current end, the date asked for and the policy', async () => {
      const { requestId } = (await ask()).json();
      const row = await approvalRow('primary', requestId);
      expect(row).toMatchObject({
        type: 'Extend Access',
        org: 'Acme Imaging',
        comment: 'Phase two of the PACS upgrade',
        currentEndsOn: ACME_END,
        requestedUntilOn: '2027-06-01',
        accessEnds: { defaultDate: '2027-06-01', maxDate: MAX, accessDays: 180 },
        canDecide: true,
      });
      // The backup BRM sees it but decides it only once it is forwarded; another organization's BRM does not see it.
      expect((await approvalRow('backup', requestId))?.canDecide ?? false).toBe(false);
      expect(await approvalRow('globexbrm', requestId)).toBeUndefined();
    });

    it('approved with a date: the grant ends then, the approver is its sponsor, audited and mailed', async () => {
      const { requestId } = (await ask()).json();
      await newMails();
      clock.set(morningOf('2027-03-03'));
      const res = await decide('primary', requestId, { accessEndsOn: '2027-07-01', comment: 'ok' });
      expect(res.statusCode).toBe(200);
      const grant = await grantOf('vendor', 'acme');
      expect(new Date(grant!.expires_at)).toEqual(endOfLocalDay('2027-07-01', ZONE));
      expect(grant!.sponsor_id).toBe(ids.primary);
      expect(new Date((await itemOf(requestId)).granted_until!)).toEqual(endOfLocalDay('2027-07-01', ZONE));
      const extended = (await auditActions(t, 'grant.extend')).at(-1)!;
      expect(extended).toMatchObject({
        actor_username: 'primary',
        organization_id: ids.acme,
        details: { from: ACME_END, to: '2027-07-01', afterExpiry: false },
      });
      const approve = (await auditActions(t, 'request.approve')).find(
        (e) => e.details.requestId === requestId,
      );
      expect(approve!.details.type).toBe('Extend Access');
      const mails = await newMails();
      expect(mails.map((m) => [m.to, m.subject])).toEqual([
        ['vendor@acme.example', 'Your extension for Acme Imaging was approved until 2027-07-01'],
      ]);
      expect((await current())[0]).toMatchObject({ endsOn: '2027-07-01', extensionPending: false });
    });

    it('approved without a date: the date asked for', async () => {
      const { requestId } = (await ask('2027-05-05')).json();
      expect((await decide('admin', requestId)).statusCode).toBe(200);
      expect(new Date((await grantOf('vendor', 'acme'))!.expires_at)).toEqual(
        endOfLocalDay('2027-05-05', ZONE),
      );
      expect((await grantOf('vendor', 'acme'))!.sponsor_id).toBe(ids.admin);
    });

    it('refuses a date past the policy or in the past, leaving the item pending', async () => {
      const { requestId } = (await ask()).json();
      for (const date of [addDays(MAX, 1), '2027-02-28']) {
        const res = await decide('primary', requestId, { accessEndsOn: date });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          errors: [`The end date must be in the future and no later than ${MAX}`],
        });
      }
      expect((await itemOf(requestId)).status).toBe('pending');
      expect(new Date((await grantOf('vendor', 'acme'))!.expires_at)).toEqual(endOfLocalDay(ACME_END, ZONE));
    });

    it('denied: the end stays, the vendor is told why', async () => {
      const { requestId } = (await ask()).json();
      await newMails();
      const res = await clients.primary!.call(approveOrDeny, {
        body: { decision: 'DENY', requestId, comment: 'Project ends in March' },
      });
      expect(res.statusCode).toBe(200);
      expect(new Date((await grantOf('vendor', 'acme'))!.expires_at)).toEqual(endOfLocalDay(ACME_END, ZONE));
      const [mail] = await newMails();
      expect(mail!.subject).toBe('Your extension for Acme Imaging was denied');
      expect(mail!.text).toContain('Reason: Project ends in March');
      expect((await auditActions(t, 'request.deny')).at(-1)!.details.type).toBe('Extend Access');
    });

    it('approved after the grant ended: made again from now, the disabled account enabled', async () => {
      const { requestId: second } = (
        await extend('other', { name: ACME, requestedUntil: '2027-06-01', justification: 'more' })
      ).json();
      // Every grant of "other" ends; the sweep disables the account for having no access left.
      clock.set(new Date(endOfLocalDay('2027-05-01', ZONE).getTime() + 60_000));
      await sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
      expect(await grantOf('other', 'acme')).toBeUndefined();
      const disabled = await t.ctx.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', ids.other!)
        .executeTakeFirstOrThrow();
      expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: 'noAccess' });
      // (Its request expired meanwhile; it is reopened for the decision.)
      await t.ctx.db
        .updateTable('request_items')
        .set({ status: 'pending', expires_at: endOfLocalDay('2027-06-30', ZONE) })
        .where('request_id', '=', second)
        .execute();
      await t.ctx.db.updateTable('requests').set({ status: 'pending' }).where('id', '=', second).execute();
      expect((await decide('primary', second, { accessEndsOn: '2027-08-01' })).statusCode).toBe(200);
      expect(new Date((await grantOf('other', 'acme'))!.expires_at)).toEqual(
        endOfLocalDay('2027-08-01', ZONE),
      );
      const extended = (await auditActions(t, 'grant.extend')).at(-1)!;
      expect(extended.details).toMatchObject({ from: null, to: '2027-08-01', afterExpiry: true });
      const enabled = await t.ctx.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', ids.other!)
        .executeTakeFirstOrThrow();
      expect(enabled.status).toBe('active');
      expect((await auditActions(t, 'account.enable')).at(-1)!.details.reason).toBe('grantAdded');
    });

    it('who may decide: the primary BRM, an admin, a delegate on the BRM’s behalf; not a backup before the forward, another organization’s BRM, the auditor, the vendor or anyone signed out', async () => {
      const { requestId } = (await ask()).json();
      for (const [role, status] of [
        ['backup', 403],
        ['deleg', 403],
        ['globexbrm', 403],
        ['auditor', 403],
        ['vendor', 403],
        ['anonymous', 401],
      ] as const) {
        expect((await decide(role, requestId)).statusCode, role).toBe(status);
      }
      expect((await itemOf(requestId)).status).toBe('pending');
      // Forwarded: the backup decides.
      await t.ctx.db
        .updateTable('request_items')
        .set({ forwarded_at: clock.now() })
        .where('request_id', '=', requestId)
        .execute();
      expect((await decide('backup', requestId)).statusCode).toBe(200);
    });

    it('a delegate’s decision says on whose behalf', async () => {
      await clients.primary!.call(setDelegation, {
        body: { delegate: ids.deleg!, from: TODAY, until: '2027-03-10' },
      });
      const { requestId } = (await ask()).json();
      await newMails();
      expect((await decide('deleg', requestId, { accessEndsOn: '2027-06-15' })).statusCode).toBe(200);
      const mails = await newMails();
      expect(mails.map((m) => m.subject)).toEqual([
        'Your extension for Acme Imaging was approved until 2027-06-15',
      ]);
      expect(mails[0]!.text).toContain(
        'approved until 2027-06-15 by Deleg Tester on behalf of Primary Tester',
      );
      const approve = (await auditActions(t, 'request.approve')).find(
        (e) => e.details.requestId === requestId,
      );
      expect(approve!.details.onBehalfOf).toBe('Primary Tester');
      expect((await grantOf('vendor', 'acme'))!.sponsor_id).toBe(ids.deleg);
    });

    it('two approvers at once: one decision wins, the grant is extended once', async () => {
      const { requestId } = (await ask()).json();
      const answers = await Promise.all([
        decide('primary', requestId, { accessEndsOn: '2027-06-10' }),
        decide('admin', requestId, { accessEndsOn: '2027-06-20' }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.statusCode === 409)!.json()).toEqual({
        errors: [approvalMessages.alreadyDecided],
      });
      const item = await itemOf(requestId);
      const events = (await auditActions(t, 'grant.extend')).filter(
        (e) => e.details.requestItemId === item.id,
      );
      expect(events).toHaveLength(1);
      expect(new Date((await grantOf('vendor', 'acme'))!.expires_at)).toEqual(
        endOfLocalDay(events[0]!.details.to as string, ZONE),
      );
    });
  });

  describe('POST /api/brm/users/set-access-end', () => {
    const body = (accessEndsOn: string, name = ACME, targetUsername = 'vendor') => ({
      targetUsername,
      name,
      accessEndsOn,
    });

    it('moves the end within policy, makes the changer the sponsor, audits and mails the vendor', async () => {
      clock.set(morningOf('2027-03-02'));
      const res = await setEnd('primary', body('2027-05-15'));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        endsOn: '2027-05-15',
        expiresAt: endOfLocalDay('2027-05-15', ZONE).toISOString(),
      });
      expect((await grantOf('vendor', 'acme'))!.sponsor_id).toBe(ids.primary);
      expect((await auditActions(t, 'grant.set-end')).at(-1)).toMatchObject({
        actor_username: 'primary',
        target_id: ids.vendor,
        organization_id: ids.acme,
        details: { from: ACME_END, to: '2027-05-15', by: 'primary' },
      });
      const mails = await newMails();
      expect(mails.map((m) => [m.to, m.subject])).toEqual([
        ['vendor@acme.example', 'Your access to Acme Imaging now ends on 2027-05-15'],
      ]);
      // Earlier works too (today is the earliest).
      expect((await setEnd('primary', body('2027-03-02'))).statusCode).toBe(200);
      expect((await current())[0]).toMatchObject({ endsOn: '2027-03-02', daysLeft: 0 });
    });

    it('refuses with its messages, changing nothing', async () => {
      const cases: [string, Record<string, unknown>, number, string][] = [
        [
          'primary',
          body(addDays(MAX, 1)),
          400,
          `The end date must be in the future and no later than ${MAX}`,
        ],
        ['primary', body('2027-02-28'), 400, `The end date must be in the future and no later than ${MAX}`],
        ['primary', body('2027-06-01', GLOBEX), 403, accessMessages.notManaged('Globex Health IT')],
        ['globexbrm', body('2027-06-01'), 403, accessMessages.notManaged('Acme Imaging')],
        ['admin', body('2027-06-01', INITECH), 409, accessMessages.notHeld('Initech Devices')],
        ['primary', body('2027-06-01', ACME, 'nobody'), 404, accessMessages.userNotFound],
        ['globexbrm', body('2027-06-01', ACME, 'other'), 404, accessMessages.userNotFound],
        [
          'primary',
          body('2027-06-01', roleName('Nowhere')),
          400,
          accessMessages.unknownRole(roleName('Nowhere')),
        ],
      ];
      for (const [role, b, status, message] of cases) {
        const res = await setEnd(role, b);
        expect(res.statusCode, `${role} ${message}`).toBe(status);
        expect(res.json(), message).toEqual({ errors: [message] });
      }
      expect(new Date((await grantOf('vendor', 'acme'))!.expires_at)).toEqual(endOfLocalDay(ACME_END, ZONE));
      expect(await newMails()).toEqual([]);
      const denied = (await auditActions(t, 'grant.set-end')).filter((e) => e.outcome === 'denied');
      expect(denied.length).toBeGreaterThanOrEqual(4);
    });

    it('refuses bad input with 400', async () => {
      for (const b of [
        { targetUsername: 'vendor', name: ACME },
        { targetUsername: 'vendor', name: ACME, accessEndsOn: '2027-13-01' },
        { targetUsername: 'vendor', name: ACME, accessEndsOn: 20270601 },
        { targetUsername: '', name: ACME, accessEndsOn: '2027-06-01' },
        { targetUsername: 'vendor', name: ACME, accessEndsOn: '2027-06-01', sponsor: 'me' },
      ]) {
        expect((await setEnd('primary', b)).statusCode, JSON.stringify(b)).toBe(400);
      }
    });

    it('who may: the organization’s BRMs (primary, backup, a delegate who backs it up) and admins; not another organization’s BRM, the auditor, the vendor or anyone signed out', async () => {
      for (const [role, status] of [
        ['primary', 200],
        ['backup', 200],
        ['deleg', 200],
        ['admin', 200],
        ['globexbrm', 403],
        ['auditor', 403],
        ['vendor', 403],
        ['anonymous', 401],
      ] as const) {
        expect((await setEnd(role, body('2027-06-01'))).statusCode, role).toBe(status);
      }
    });

    it('two BRMs at once: both changes apply in turn, the grant ends on the last one’s date', async () => {
      const answers = await Promise.all([
        setEnd('primary', body('2027-06-11')),
        setEnd('admin', body('2027-07-11')),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      const events = (await auditActions(t, 'grant.set-end')).filter(
        (e) => e.outcome === 'success' && ['2027-06-11', '2027-07-11'].includes(e.details.to as string),
      );
      expect(events).toHaveLength(2);
      // The first to commit saw the old end; the second saw the first's date; the grant has the second's.
      const first = events.find((e) => e.details.from === ACME_END)!;
      const second = events.find((e) => e !== first)!;
      expect(second.details.from).toBe(first.details.to);
      expect(new Date((await grantOf('vendor', 'acme'))!.expires_at)).toEqual(
        endOfLocalDay(second.details.to as string, ZONE),
      );
    });
  });
});
