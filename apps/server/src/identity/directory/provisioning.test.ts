// The provisioning outbox on both engines against a real OpenLDAP (slapd started by the test):
// a change of the portal leaves its row in its own transaction (none when it rolls back), the
// worker makes the directory hold the account as the portal has it, a row applied twice has one
// effect, and a directory outage delays rows (admins see why) without losing one.
import { roleName } from '@pra/contracts';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount } from '../../../test/support/sign-in';
import { slapdInstalled, startSlapd, type Slapd } from '../../../test/support/slapd';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization } from '../../../test/support/world';
import { listFailingProvisioning, makeProvisioningDue } from '../../store/provisioning';
import { applyDueProvisioning, applyProvisioning } from './provisioning-worker';

if (!slapdInstalled) console.warn('SKIPPED provisioning.test.ts: needs slapd (apt-get install -y slapd)');

describe.skipIf(!slapdInstalled).each(testDatabaseKinds)('provisioning outbox on %s', (kind) => {
  let slapd: Slapd;
  let t: TestApp;
  let acme: string;
  // Applies every pending row. A row that failed for a moment (slapd slow on a busy machine) waits
  // out its backoff; here it is made due again at once, so the test sees the outcome, not the wait.
  const drain = async () => {
    let total = 0;
    for (let rounds = 0; rounds < 50; rounds += 1) {
      const round = await applyDueProvisioning(t.ctx.db, t.ctx.identityStore, t.ctx.clock);
      total += round.applied;
      if (round.applied + round.failed > 0) continue;
      const waiting = await t.ctx.db
        .updateTable('provisioning')
        .set({ next_attempt_at: new Date(0), locked_until: null })
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(waiting.numUpdatedRows) === 0) return total;
    }
    throw new Error('provisioning rows still pending after 50 rounds');
  };
  const pending = async () =>
    t.ctx.db.selectFrom('provisioning').selectAll().where('status', '=', 'pending').execute();
  const directory = async (uid: string) => {
    const client = new Client({ url: slapd.url, timeout: 5_000 });
    await client.bind(slapd.adminDn, slapd.adminPassword);
    try {
      const [entry] = (
        await client.search(slapd.suffix, {
          filter: `(uid=${uid})`,
          attributes: ['pwdAccountLockedTime', 'sn'],
        })
      ).searchEntries;
      const groups = (
        await client.search(slapd.groupsDn, { filter: `(member=${entry?.dn ?? 'none'})`, attributes: ['cn'] })
      ).searchEntries.map((g) => String(g.cn));
      return entry
        ? {
            dn: entry.dn,
            locked: [entry.pwdAccountLockedTime ?? []].flat().length > 0,
            sn: String(entry.sn),
            groups,
          }
        : null;
    } finally {
      await client.unbind();
    }
  };

  beforeAll(async () => {
    slapd = await startSlapd();
    t = await createTestApp(kind, slapd.env);
    acme = await addOrganization(t, 'Acme Imaging');
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.close();
  });

  it('creates the organization group and the account with its roles, one row per account', async () => {
    const vendor = await createAccount(t, { username: 'vacme' });
    await t.ctx.db
      .insertInto('role_grants')
      .values({ account_id: vendor, organization_id: acme, granted_by: null, request_item_id: null })
      .execute();
    await createAccount(t, { username: 'brmone', type: 'employee' });
    const rows = await pending();
    expect(rows.map((r) => r.action).sort()).toEqual(['account.create', 'group.ensure']);
    expect(await drain()).toBe(2);
    expect(await directory('vacme')).toMatchObject({ locked: false, groups: [roleName('Acme Imaging')] });
    expect(await directory('brmone')).toBeNull();
  });

  it('follows disable, rename and enable; a row applied twice has one effect', async () => {
    await t.ctx.db
      .updateTable('accounts')
      .set({ status: 'disabled' })
      .where('username', '=', 'vacme')
      .execute();
    const [row] = await pending();
    expect(row?.action).toBe('account.disabled');
    await drain();
    expect(await directory('vacme')).toMatchObject({ locked: true });
    await applyProvisioning(t.ctx.db, t.ctx.identityStore, row!);
    expect(await directory('vacme')).toMatchObject({ locked: true, groups: [roleName('Acme Imaging')] });
    await t.ctx.db
      .updateTable('accounts')
      .set({ family_name: 'Renamed' })
      .where('username', '=', 'vacme')
      .execute();
    await t.ctx.db
      .updateTable('accounts')
      .set({ status: 'active' })
      .where('username', '=', 'vacme')
      .execute();
    expect(await pending()).toHaveLength(1);
    await drain();
    expect(await directory('vacme')).toMatchObject({ locked: false, sn: 'Renamed' });
  });

  it('writes no row for a change that rolls back', async () => {
    await expect(
      t.ctx.db.transaction().execute(async (tx) => {
        await tx
          .updateTable('accounts')
          .set({ status: 'disabled' })
          .where('username', '=', 'vacme')
          .execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await pending()).toEqual([]);
  });

  it('keeps rows while the directory is down, shows why, and applies them once it is back', async () => {
    await slapd.stop();
    try {
      await t.ctx.db.deleteFrom('role_grants').where('organization_id', '=', acme).execute();
      // The trigger's row is due at PostgreSQL's now() (microseconds); a claim in the same
      // millisecond (this clock's) would find it not yet due and wait for the worker's next poll.
      await makeProvisioningDue(t.ctx.db, t.ctx.clock.now());
      const round = await applyDueProvisioning(t.ctx.db, t.ctx.identityStore, t.ctx.clock);
      expect(round.unavailable).toMatch(/directory unavailable/);
      const [failing] = await listFailingProvisioning(t.ctx.db);
      expect(failing).toMatchObject({ username: 'vacme', action: 'role.remove', attempts: 1 });
      expect(failing?.last_error).toMatch(/directory unavailable/);
    } finally {
      await slapd.start();
    }
    expect(await makeProvisioningDue(t.ctx.db, t.ctx.clock.now())).toBe(1);
    await drain();
    expect(await directory('vacme')).toMatchObject({ groups: [] });
    expect(await pending()).toEqual([]);
  });

  it('terminates: groups gone, locked, moved to the terminated OU', async () => {
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: (
          await t.ctx.db
            .selectFrom('accounts')
            .select('id')
            .where('username', '=', 'vacme')
            .executeTakeFirstOrThrow()
        ).id,
        organization_id: acme,
        granted_by: null,
        request_item_id: null,
      })
      .execute();
    await drain();
    await t.ctx.db
      .updateTable('accounts')
      .set({ status: 'terminated' })
      .where('username', '=', 'vacme')
      .execute();
    await drain();
    const found = await directory('vacme');
    expect(found).toMatchObject({ locked: true, groups: [] });
    expect(found?.dn.toLowerCase()).toContain(slapd.terminatedDn.toLowerCase());
  });
});
