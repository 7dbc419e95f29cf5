// The fault test: the directory (a real slapd) stops for DIRECTORY_OUTAGE_SECONDS while 20
// vendors' roles change (the features' own grantRole/removeRole, each in its transaction) and 5
// vendors reset their password (Forgot Password's set-password over HTTP, verified by passcode
// before the outage). Resets answer 503 during it and work after it with the same verification;
// every role change reaches the directory (the worker running as in production), none is lost or
// doubled; nothing answers a 5xx other than 503.
//
// The outage lasts the 60 s on the last engine (PostgreSQL when the run has it) and 10 s on
// the other. Nothing in the mechanism depends on the length (rows back off at most to their next
// health probe, 2 s, after the return), so the shorter one checks the same on the other engine
// without a second minute of waiting; DIRECTORY_OUTAGE_SECONDS sets both (=10 serves a quick local
// run; .ci/run uses it for the second pass of the server tests on the oldest Node.js line).
import { roleName } from '@pra/contracts';
import { Client } from 'ldapts';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole, removeRole } from '../src/identity/roles';
import {
  startProvisioningWorker,
  type ProvisioningWorker,
} from '../src/identity/directory/provisioning-worker';
import { testDatabaseKinds } from './support/databases';
import { createAccount, enrollTotpDevice } from './support/sign-in';
import { slapdInstalled, startSlapd, type Slapd } from './support/slapd';
import { createTestApp, TestClient, type TestApp } from './support/test-app';
import { addOrganization } from './support/world';

const outageSeconds = (kind: string) =>
  Number(process.env.DIRECTORY_OUTAGE_SECONDS ?? (kind === testDatabaseKinds.at(-1) ? 60 : 10));
const IDENTIFY = '/api/user/forgot-password/identify';
const OTP = '/api/user/forgot-password/verify-otp';
const SET = '/api/user/forgot-password/set-password';
const NEW_PASSWORD = 'Sturdy-Lantern-Meadow-71';

if (!slapdInstalled) console.warn('SKIPPED directory-outage.test.ts: needs slapd (apt-get install -y slapd)');

describe.skipIf(!slapdInstalled).each(testDatabaseKinds)('directory outage on %s', (kind) => {
  const OUTAGE_SECONDS = outageSeconds(kind);
  let slapd: Slapd;
  let t: TestApp;
  let worker: ProvisioningWorker;
  const orgs: Record<string, string> = {};
  let adminId = '';
  const vendors: { id: string; username: string }[] = [];
  const resetters: { id: string; username: string; secret: string; client: TestClient }[] = [];

  const groupsOf = async (username: string) => {
    const client = new Client({ url: slapd.url, timeout: 5_000 });
    await client.bind(slapd.adminDn, slapd.adminPassword);
    try {
      const dn = `uid=${username},${slapd.vendorsDn}`;
      const { searchEntries } = await client.search(slapd.groupsDn, {
        filter: `(member=${dn})`,
        attributes: ['cn'],
      });
      return searchEntries.map((e) => String(e.cn)).sort();
    } finally {
      await client.unbind();
    }
  };
  const pendingRows = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('provisioning')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const drained = async (withinMs: number) => {
    const end = Date.now() + withinMs;
    while ((await pendingRows()) > 0) {
      if (Date.now() > end) throw new Error(`provisioning rows still pending after ${withinMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  beforeAll(async () => {
    slapd = await startSlapd();
    t = await createTestApp(kind, { ...slapd.env, LDAP_HEALTH_CACHE_SECONDS: '1', LDAP_TIMEOUT_MS: '1000' });
    orgs.a = await addOrganization(t, 'Alpha Imaging');
    orgs.b = await addOrganization(t, 'Beta Labs');
    adminId = await createAccount(t, { username: 'outageadmin', type: 'employee', isAdmin: true });
    for (let i = 1; i <= 25; i += 1) {
      const username = `vout${i}`;
      const id = await createAccount(t, { username });
      await t.ctx.db
        .insertInto('role_grants')
        .values({ account_id: id, organization_id: orgs.a, granted_by: null, request_item_id: null })
        .execute();
      if (i <= 20) vendors.push({ id, username });
      else {
        const secret = await enrollTotpDevice(t, id, 'phone');
        resetters.push({ id, username, secret, client: new TestClient(t.app) });
      }
    }
    worker = startProvisioningWorker(t.ctx.db, t.ctx.identityStore, t.ctx.clock, { intervalMs: 200 });
    await drained(60_000);
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await slapd?.close();
  });

  it(
    'keeps every change through the outage, applies each once after it, and answers only 503',
    async () => {
      const statuses: number[] = [];
      for (const r of resetters) {
        await r.client.fetchCsrf();
        const identified = await r.client.post(IDENTIFY, {
          username: r.username,
          email: `${r.username}@example.test`,
        });
        expect(identified.statusCode).toBe(200);
        const otp = await generate({ secret: r.secret });
        expect((await r.client.post(OTP, { username: r.username, otp })).json()).toEqual({
          result: 'success',
        });
      }

      await slapd.stop();
      const outageEnds = Date.now() + OUTAGE_SECONDS * 1000;
      const actor = { id: adminId, username: 'outageadmin' };
      // Five at a time: the pool's connections (10) are shared with the worker and the resets.
      for (let i = 0; i < vendors.length; i += 5) {
        await Promise.all(
          vendors.slice(i, i + 5).map((v) =>
            t.ctx.db.transaction().execute(async (tx) => {
              const at = t.ctx.clock.now();
              const change = { actor, account: v, requestItemId: null, clientAddress: '127.0.0.1', at };
              await removeRole(tx, { ...change, organizationId: orgs.a! });
              await grantRole(tx, {
                ...change,
                organizationId: orgs.b!,
                expiresAt: new Date(at.getTime() + 90 * 86_400_000),
              });
            }),
          ),
        );
      }
      for (const r of resetters) {
        const res = await r.client.post(SET, { username: r.username, newPassword: NEW_PASSWORD });
        statuses.push(res.statusCode);
        expect(res.statusCode).toBe(503);
      }
      expect(await pendingRows()).toBe(20);
      await new Promise((r) => setTimeout(r, Math.max(0, outageEnds - Date.now())));
      await slapd.start();
      // The banner goes once the cached health (LDAP_HEALTH_CACHE_SECONDS, 1 s here) sees it back.
      const healthBy = Date.now() + 10_000;
      while (!(await t.ctx.identityStore.health()).ok) {
        if (Date.now() > healthBy) throw new Error('the directory did not come back healthy');
        await new Promise((r) => setTimeout(r, 200));
      }

      for (const r of resetters) {
        const res = await r.client.post(SET, { username: r.username, newPassword: NEW_PASSWORD });
        statuses.push(res.statusCode);
        expect(res.statusCode).toBe(200);
        expect(await t.ctx.identityStore.checkPassword(r.username, NEW_PASSWORD)).toBe(true);
      }
      await drained(60_000);
      for (const v of vendors) expect(await groupsOf(v.username)).toEqual([roleName('Beta Labs')]);
      const rows = await t.ctx.db
        .selectFrom('provisioning')
        .select(['account_id', 'status'])
        .where('action', 'in', ['role.remove', 'role.grant'])
        .where('created_at', '>=', new Date(outageEnds - OUTAGE_SECONDS * 1000 - 60_000))
        .execute();
      // One row per vendor for both its changes (coalesced while waiting), each applied.
      const perVendor = new Map<string, number>();
      for (const row of rows) perVendor.set(row.account_id!, (perVendor.get(row.account_id!) ?? 0) + 1);
      for (const v of vendors) expect(perVendor.get(v.id)).toBe(1);
      expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    },
    OUTAGE_SECONDS * 1000 + 180_000,
  );
});
