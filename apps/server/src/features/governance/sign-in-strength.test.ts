import { getSignInStrength } from '@pra/contracts/endpoints/governance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestApp, type TestClient } from '../../../test/support/test-app';
import { addOrganization, assignBrm } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';

describe.each(testDatabaseKinds)('the sign-in strength report on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock();
  const c: Record<string, TestClient> = {};
  const orgs: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    orgs.high = await addOrganization(t, 'Strength High');
    orgs.plain = await addOrganization(t, 'Strength Plain');
    await t.ctx.db
      .updateTable('organizations')
      .set({ risk_tier: 'high' })
      .where('id', '=', orgs.high)
      .execute();
    const grant = (account: string, org: string, days = 90) =>
      t.ctx.db
        .insertInto('role_grants')
        .values({
          account_id: account,
          organization_id: org,
          expires_at: new Date(clock.now().getTime() + days * 86_400_000),
        })
        .execute();
    const key = (account: string) =>
      t.ctx.db
        .insertInto('webauthn_credentials')
        .values({
          account_id: account,
          credential_id: `strength-${account}`,
          public_key: 'pk',
          device_type: 'multiDevice',
          backed_up: true,
          aaguid: '00000000-0000-0000-0000-000000000000',
          nickname: 'Passkey',
          created_at: clock.now(),
        })
        .execute();
    // High: three active vendors, two with a key; a disabled one and an ended grant do not count.
    for (const [name, withKey] of [
      ['sk1', true],
      ['sk2', true],
      ['sk3', false],
    ] as const) {
      const id = await createAccount(t, { username: name });
      await grant(id, orgs.high);
      if (withKey) await key(id);
    }
    const off = await createAccount(t, { username: 'skoff', status: 'disabled' });
    await grant(off, orgs.high);
    await key(off);
    const ended = await createAccount(t, { username: 'skended' });
    await grant(ended, orgs.high, -1);
    await key(ended);
    // Plain: one vendor, no key.
    await grant(await createAccount(t, { username: 'skplain' }), orgs.plain);
    await createAccount(t, { username: 'skadmin', type: 'employee', isAdmin: true });
    const auditor = await createAccount(t, { username: 'skauditor', type: 'employee', isAdmin: true });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', auditor).execute();
    const brm = await createAccount(t, { username: 'skbrm', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brm, orgs.high);
    await createAccount(t, { username: 'skemployee', type: 'employee' });
    for (const name of ['skadmin', 'skauditor', 'skbrm', 'skemployee', 'skplain'])
      c[name] = await signInAs(t, name);
  });
  afterAll(async () => t?.close());

  it('gives admins and auditors, per organization, the share of vendors with a key', async () => {
    for (const who of ['skadmin', 'skauditor']) {
      const res = await c[who]!.call(getSignInStrength, { query: { filter: 'Strength ' } });
      expect(res.statusCode, who).toBe(200);
      const rows = res.json<{ items: { name: string }[] }>().items;
      expect(rows.filter((r) => r.name.startsWith('Strength '))).toEqual([
        {
          id: orgs.high,
          name: 'Strength High',
          riskTier: 'high',
          vendors: 3,
          phishingResistant: 2,
          share: 2 / 3,
        },
        {
          id: orgs.plain,
          name: 'Strength Plain',
          riskTier: 'standard',
          vendors: 1,
          phishingResistant: 0,
          share: 0,
        },
      ]);
    }
  });

  it('refuses BRMs, employees, vendors and anonymous callers', async () => {
    for (const who of ['skbrm', 'skemployee', 'skplain']) {
      expect((await c[who]!.call(getSignInStrength, {})).statusCode, who).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/reports/sign-in-strength' });
    expect(anonymous.statusCode).toBe(401);
  });
});
