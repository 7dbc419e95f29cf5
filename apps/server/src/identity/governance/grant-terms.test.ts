import { roleName, type CurrentRole, type PendingAccessRequest } from '@pra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestApp, type TestClient } from '../../../test/support/test-app';
import { addOrganization, assignBrm, auditActions } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { endOfLocalDay, localInstant } from '../../platform/local-time';

const ZONE = 'America/New_York';
const CURRENT = '/api/vendor/access/current';
const PENDING = '/api/vendor/access/pending';
const REQUEST = '/api/vendor/access/request';
const DECIDE = '/api/brm/pending-approvals/approve-or-deny';

describe.each(testDatabaseKinds)('grant end dates and sponsors on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(localInstant('2027-01-10', { hour: 10, minute: 0, second: 0 }, ZONE));
  const ids: Record<string, string> = {};
  let brm: TestClient;
  let admin: TestClient;

  const grantOf = (accountId: string, organizationId: string) =>
    t.ctx.db
      .selectFrom('role_grants')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging', ['example.test']);
    ids.vault = await addOrganization(t, 'Vault Systems', ['example.test']);
    await t.ctx.db
      .updateTable('organizations')
      .set({ risk_tier: 'high', contract_ends_on: '2027-04-01' })
      .where('id', '=', ids.vault)
      .execute();
    ids.brm = await createAccount(t, { username: 'brm', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, ids.brm, ids.acme);
    await assignBrm(t, ids.brm, ids.vault);
    brm = await signInAs(t, 'brm');
    ids.admin = await createAccount(t, { username: 'boss', type: 'employee', isAdmin: true });
    admin = await signInAs(t, 'boss');
  });
  afterAll(async () => t?.close());

  it("grants for the tier's duration by default, to the end of the day in the hospital's zone, with the granter as sponsor", async () => {
    const vic = await createAccount(t, { username: 'vic' });
    const res = await admin.post(REQUEST, {
      selectedNames: [roleName('Acme Imaging')],
      justification: 'Onboarding',
      beneficiaryUsername: 'vic',
      beneficiaryEmail: 'vic@example.test',
    });
    expect(res.json()).toEqual({ errors: [], successes: ['Acme Imaging'] });
    const grant = await grantOf(vic, ids.acme!);
    expect(new Date(grant.expires_at)).toEqual(endOfLocalDay('2027-07-09', ZONE)); // 180 days
    expect(grant.sponsor_id).toBe(ids.admin);

    const vendor = await signInAs(t, 'vic');
    const current = (await vendor.get(`${CURRENT}?username=vic`)).json<CurrentRole[]>();
    expect(current).toEqual([
      {
        name: roleName('Acme Imaging'),
        display: 'Acme Imaging',
        expiresAt: endOfLocalDay('2027-07-09', ZONE).toISOString(),
        endsOn: '2027-07-09',
        daysLeft: 180,
        sponsor: { name: 'Boss Tester', email: 'boss@example.test' },
        extensionPending: false,
        defaultEndsOn: '2027-07-09',
        maxEndsOn: '2028-01-10',
      },
    ]);
  });

  it('lets the approver set the end date within the tier cap and the contract end, and refuses one past them', async () => {
    const val = await createAccount(t, { username: 'val' });
    const vendor = await signInAs(t, 'val');
    await vendor.post(REQUEST, {
      selectedNames: [roleName('Vault Systems')],
      justification: 'Maintenance window',
      beneficiaryUsername: 'val',
      beneficiaryEmail: 'val@example.test',
    });
    const [request] = (await vendor.get(`${PENDING}?username=val`)).json<PendingAccessRequest[]>();
    const requestId = request!.id;
    // High tier: at most 180 days, and never past the contract's end (2027-04-01).
    for (const accessEndsOn of ['2027-04-02', '2027-01-09']) {
      const refused = await brm.post(DECIDE, { decision: 'APPROVE', requestId, accessEndsOn });
      expect([refused.statusCode, refused.json()]).toEqual([
        400,
        { errors: ['The end date must be in the future and no later than 2027-04-01'] },
      ]);
    }
    expect(
      (await brm.post(DECIDE, { decision: 'APPROVE', requestId, accessEndsOn: 'soon' })).statusCode,
    ).toBe(400);
    const approved = await brm.post(DECIDE, { decision: 'APPROVE', requestId, accessEndsOn: '2027-03-01' });
    expect(approved.statusCode).toBe(200);
    expect(new Date((await grantOf(val, ids.vault!)).expires_at)).toEqual(endOfLocalDay('2027-03-01', ZONE));
  });

  it('enables again, without a new activation, an account the sweeper disabled for no access when a grant is added', async () => {
    const rex = await createAccount(t, { username: 'rex' });
    await t.ctx.db
      .updateTable('accounts')
      .set({ status: 'disabled', disabled_reason: 'noAccess', disabled_at: clock.now() })
      .where('id', '=', rex)
      .execute();
    const res = await admin.post(REQUEST, {
      selectedNames: [roleName('Acme Imaging')],
      justification: 'Back for a new job',
      beneficiaryUsername: 'rex',
      beneficiaryEmail: 'rex@example.test',
    });
    expect(res.json()).toEqual({ errors: [], successes: ['Acme Imaging'] });
    const account = await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', rex)
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({ status: 'active', disabled_reason: null });
    expect((await auditActions(t, 'account.enable')).filter((e) => e.target_id === rex)).toMatchObject([
      { actor_username: 'boss', details: { reason: 'grantAdded' } },
    ]);
  });
});
