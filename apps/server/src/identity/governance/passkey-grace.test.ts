import { changeOrganization } from '@pra/contracts/endpoints/administration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization, auditActions, outbox } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { keyPolicy } from '../mfa/key-policy';
import { passkeyGrace } from './passkey-grace';
import { runSweep } from './sweep';

// GOVERNANCE.md §7.4 and §7.7: raising the requirement starts the 30-day grace of every account
// without a key (W3), whether or not it signs in; W3 goes again 7 days before the end, once.

const START = new Date('2027-05-03T14:00:00Z');
const DAY = 86_400_000;

describe.each(testDatabaseKinds)('the security-key grace on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(START);
  let n = 0;
  const sweep = () =>
    runSweep({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log }, [passkeyGrace], `grace-${n++}`);

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    await createAccount(t, { username: 'graceadmin', type: 'employee', isAdmin: true });
  });
  afterAll(async () => t?.close());

  async function vendorIn(orgId: string, username: string, withKey = false) {
    const id = await createAccount(t, { username });
    await t.ctx.db
      .insertInto('role_grants')
      .values({ account_id: id, organization_id: orgId, expires_at: new Date(START.getTime() + 200 * DAY) })
      .execute();
    if (withKey)
      await t.ctx.db
        .insertInto('webauthn_credentials')
        .values({
          account_id: id,
          credential_id: `cred-${username}`,
          public_key: 'pk',
          device_type: 'singleDevice',
          backed_up: false,
          aaguid: '00000000-0000-0000-0000-000000000000',
          nickname: 'Blue key',
          created_at: clock.now(),
        })
        .execute();
    return id;
  }
  const w3 = async (username: string) =>
    (await outbox(t, `${username}@example.test`)).filter((m) => m.template === 'passkey-required');
  const graceRow = (id: string) =>
    t.ctx.db.selectFrom('passkey_requirements').selectAll().where('account_id', '=', id).executeTakeFirst();

  it('starts at the raise, not at the next sign-in: W3 and the audit at once, the grace ends 30 days after the raise', async () => {
    clock.set(START);
    const orgId = await addOrganization(t, 'Raised Radiology');
    const keyless = await vendorIn(orgId, 'gkeyless');
    await vendorIn(orgId, 'gkeyed', true);
    const admin = await signInAs(t, 'graceadmin');
    const res = await admin.call(changeOrganization, { params: { id: orgId }, body: { riskTier: 'high' } });
    expect(res.statusCode).toBe(200);

    expect(new Date((await graceRow(keyless))!.since)).toEqual(START);
    const mails = await w3('gkeyless');
    expect(mails.map((m) => m.subject)).toEqual([
      'Raised Radiology requires a security key or passkey from 2027-06-02',
    ]);
    expect(await w3('gkeyed')).toEqual([]);
    const changes = (await auditActions(t, 'mfa.requirement-change')).filter((e) => e.target_id === keyless);
    expect(changes.map((e) => e.details.until)).toEqual([new Date(START.getTime() + 30 * DAY).toISOString()]);

    // The first sign-in comes 10 days later: the grace still ends 30 days after the raise.
    clock.set(new Date(START.getTime() + 10 * DAY));
    const account = await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', keyless)
      .executeTakeFirstOrThrow();
    const policy = await keyPolicy(t.ctx, account);
    expect(policy).toEqual({
      kind: 'grace',
      organizationName: 'Raised Radiology',
      until: new Date(START.getTime() + 30 * DAY),
    });
    expect(await w3('gkeyless')).toHaveLength(1);
    // Saving the tier again starts nothing new.
    await admin.call(changeOrganization, { params: { id: orgId }, body: { riskTier: 'high' } });
    expect(await w3('gkeyless')).toHaveLength(1);
    // Lowered, the grace is forgotten at once; raised again, a new one starts.
    const lowered = await admin.call(changeOrganization, {
      params: { id: orgId },
      body: { riskTier: 'standard' },
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(await graceRow(keyless)).toBeUndefined();
    await admin.call(changeOrganization, { params: { id: orgId }, body: { riskTier: 'high' } });
    expect(new Date((await graceRow(keyless))!.since)).toEqual(clock.now());
    expect(await w3('gkeyless')).toHaveLength(2);
  });

  it('the sweep starts the graces a policy edit or a new grant raised, and mails W3 again 7 days before the end, once', async () => {
    clock.set(START);
    const orgId = await addOrganization(t, 'Swept Surgery');
    await t.ctx.db.updateTable('organizations').set({ risk_tier: 'high' }).where('id', '=', orgId).execute();
    const id = await vendorIn(orgId, 'gswept');
    const result = await sweep();
    expect(result.steps['passkey-grace']).toMatchObject({ failed: 0 });
    expect(new Date((await graceRow(id))!.since)).toEqual(START);
    expect(await w3('gswept')).toHaveLength(1);

    clock.set(new Date(START.getTime() + 22 * DAY)); // 8 days left: not yet
    await sweep();
    expect(await w3('gswept')).toHaveLength(1);
    clock.set(new Date(START.getTime() + 23 * DAY)); // 7 days left
    await sweep();
    await sweep();
    const mails = await w3('gswept');
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('Swept Surgery requires a security key or passkey from 2027-06-02');
    clock.set(new Date(START.getTime() + 29 * DAY));
    await sweep();
    clock.set(new Date(START.getTime() + 31 * DAY)); // over: nothing more to say
    await sweep();
    expect(await w3('gswept')).toHaveLength(2);
  });

  it('two sweeps at once start one grace and send one reminder', async () => {
    clock.set(START);
    const orgId = await addOrganization(t, 'Racing Renal');
    await t.ctx.db.updateTable('organizations').set({ risk_tier: 'high' }).where('id', '=', orgId).execute();
    const id = await vendorIn(orgId, 'grace2');
    const account = await t.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // A sign-in and the sweep at the same moment.
    await Promise.all([sweep(), keyPolicy(t.ctx, account)]);
    expect(await w3('grace2')).toHaveLength(1);
    clock.set(new Date(START.getTime() + 24 * DAY));
    await Promise.all([sweep(), sweep()]);
    expect(await w3('grace2')).toHaveLength(2);
  });
});
