// The admins' view of the hospital's directory (a real slapd started by the test), on both
// engines: a change that failed while the directory was down is listed with the directory's
// reason, an admin retries it (audited), and the last reconciliation's report is shown.
import { getDirectoryStatus, retryProvisioning } from '@pra/contracts/endpoints/administration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { slapdInstalled, startSlapd, type Slapd } from '../../../test/support/slapd';
import { createTestApp, type TestApp, type TestClient } from '../../../test/support/test-app';
import { auditActions } from '../../../test/support/world';
import { applyDueProvisioning } from '../../identity/directory/provisioning-worker';
import { reconcileDirectory } from '../../identity/directory/reconcile';

if (!slapdInstalled) console.warn('SKIPPED directory-status.test.ts: needs slapd (apt-get install -y slapd)');

describe.skipIf(!slapdInstalled).each(testDatabaseKinds)('admin directory status on %s', (kind) => {
  let slapd: Slapd;
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    slapd = await startSlapd();
    t = await createTestApp(kind, slapd.env);
    await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    admin = await signInAs(t, 'adminone');
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.close();
  });

  it('lists a failing change with the reason, retries it, and shows the last report', async () => {
    await slapd.stop();
    try {
      await createAccount(t, { username: 'vwaits' });
      const round = await applyDueProvisioning(t.ctx.db, t.ctx.identityStore, t.ctx.clock);
      expect(round.unavailable).not.toBeNull();
    } finally {
      await slapd.start();
    }
    const status = await admin.call(getDirectoryStatus);
    expect(status.statusCode).toBe(200);
    const [row] = status.json().failing;
    expect(row).toMatchObject({ action: 'account.create', username: 'vwaits', attempts: 1 });
    expect(row?.lastError).toMatch(/directory unavailable/);
    expect(status.json().lastReport).toBeNull();

    expect((await admin.call(retryProvisioning, { params: { id: row!.id } })).statusCode).toBe(200);
    expect(await auditActions(t, 'provisioning.retry')).toHaveLength(1);
    await applyDueProvisioning(t.ctx.db, t.ctx.identityStore, t.ctx.clock);
    const missing = await admin.call(retryProvisioning, { params: { id: row!.id } });
    expect(missing.statusCode).toBe(404);

    await reconcileDirectory(t.ctx.db, t.ctx.identityStore, t.ctx.clock, {
      apply: false,
      actor: { id: null, username: 'system' },
    });
    const after = (await admin.call(getDirectoryStatus)).json();
    expect(after).toMatchObject({ identityStore: 'ldap', available: true, pending: 0, failing: [] });
    expect(after.lastReport).toMatchObject({ drift: 0, applied: false });
  });
});
