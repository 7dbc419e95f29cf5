import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '@pra/contracts/endpoints';
import * as calls from '@pra/contracts/endpoints/policy-attestation';
import { getCurrentUser } from '@pra/contracts/endpoints/session';
import { getCurrentAccess } from '@pra/contracts/endpoints/access';
import { aupMessages, type Endpoint } from '@pra/contracts';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs, startLogin, validResponseOptions } from '../../../test/support/sign-in';
import { forgeResponse } from '../../../test/support/saml-forge';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import {
  activationCodeFor,
  addOrganization,
  assignBrm,
  auditActions,
  outbox,
} from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { addDays, localDate, localInstant } from '../../platform/local-time';
import { callsWhileAupOverdue } from '../../http/endpoint-routes';
import { aupReminders } from '../../identity/governance/aup';
import { brmDigest } from '../../identity/governance/access-digest';
import { runSweep } from '../../identity/governance/sweep';

const ZONE = 'America/New_York';
const DAY = 86_400_000;
const morningOf = (date: string) => localInstant(date, { hour: 10, minute: 0, second: 0 }, ZONE);

describe.each(testDatabaseKinds)('Acceptable Use Policy attestation on %s', (kind) => {
  let t: TestApp;
  const start = morningOf('2027-03-01');
  const clock = new TestClock(start);
  // Only the attestation's step and the digest: the other steps (dormancy above all) would act on
  // vendors left idle for a year of test time.
  const sweep = () =>
    runSweep(
      { db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log },
      [aupReminders, brmDigest],
      'test',
    );
  const at = (days: number) => clock.set(new Date(start.getTime() + days * DAY));
  let orgId: string;
  let brmId: string;
  let admin: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    orgId = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    brmId = await createAccount(t, { username: 'bruno', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brmId, orgId);
    const adminId = await createAccount(t, { username: 'ada', type: 'employee', isAdmin: true });
    await assignBrm(t, adminId, orgId);
    await createAccount(t, { username: 'alan', type: 'employee', isAdmin: true });
    const auditor = await createAccount(t, { username: 'audrey', type: 'employee', isAdmin: true });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', auditor).execute();
    await createAccount(t, { username: 'emma', type: 'employee' });
    // The reports-only auditor: an employee with the auditor flag and no admin flag.
    const reader = await createAccount(t, { username: 'rita', type: 'employee' });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', reader).execute();
    admin = await signInAs(t, 'ada');
  });
  afterAll(async () => t?.close());

  async function vendor(username: string, withGrant = true) {
    const id = await createAccount(t, { username });
    if (withGrant) {
      await t.ctx.db
        .insertInto('role_grants')
        .values({
          account_id: id,
          organization_id: orgId,
          granted_by: brmId,
          sponsor_id: brmId,
          request_item_id: null,
          expires_at: new Date(start.getTime() + 900 * DAY),
        })
        .execute();
    }
    return id;
  }
  const flag = async (id: string) =>
    (
      await t.ctx.db
        .selectFrom('accounts')
        .select('aup_overdue_since')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).aup_overdue_since;
  const mails = async (username: string, template: string) =>
    (await outbox(t, `${username}@example.test`)).filter((m) => m.template === template);
  const newest = async () => (await admin.call(calls.listAupVersions)).json().versions[0]!.version;

  it('activation records the wizard’s policy, version 1, as the first acceptance (time and address)', async () => {
    const res = await admin.post('/api/user/new/submit', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@acme.example',
      org: 'Acme Imaging',
    });
    expect(res.statusCode).toBe(200);
    const code = await activationCodeFor(t, 'grace@acme.example');
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    const done = await anonymous.post('/api/user/activate/activate-with-password', {
      claimCode: code,
      newPassword: 'Tr1cky-Zebra-Lamp',
    });
    expect(done.statusCode).toBe(200);
    const row = await t.ctx.db
      .selectFrom('aup_acceptances as x')
      .innerJoin('aup_versions as v', 'v.id', 'x.version_id')
      .innerJoin('accounts as a', 'a.id', 'x.account_id')
      .select(['v.version', 'x.accepted_at', 'x.client_address'])
      .where('a.email', '=', 'grace@acme.example')
      .executeTakeFirstOrThrow();
    expect(row.version).toBe(1);
    expect(new Date(row.accepted_at).getTime()).toBe(clock.now().getTime());
    expect(row.client_address).toBe('127.0.0.1');
    expect((await auditActions(t, 'aup.accept')).at(-1)).toMatchObject({ details: { version: 1 } });
  });

  it('goes current → due (30 days before) → overdue (30 days after), reminds at 30 and 7 days once, and blocks', async () => {
    clock.set(start);
    const id = await vendor('vera');
    const vera = await signInAs(t, 'vera');
    expect((await vera.call(calls.acceptAup, { body: { version: 1 } })).statusCode).toBe(200);
    const dueOn = addDays('2027-03-01', 365);
    const mine = await vera.call(calls.getMyAup);
    expect(mine.json()).toMatchObject({
      policy: { version: 1, title: 'Acceptable Use Policy' },
      standing: {
        state: 'current',
        acceptedVersion: 1,
        acceptedOn: '2027-03-01',
        dueOn,
        blocksAfter: addDays(dueOn, 30),
      },
    });
    expect(mine.json().policy.bodyMd).toContain('## Authorized use only');

    at(334);
    await sweep();
    expect(await mails('vera', 'aup-reminder')).toHaveLength(0);
    expect((await (await signInAs(t, 'vera')).call(calls.getMyAup)).json().standing.state).toBe('current');
    at(335);
    await sweep();
    await sweep();
    const first = await mails('vera', 'aup-reminder');
    expect(first.map((m) => m.subject)).toEqual([`Please review the Acceptable Use Policy by ${dueOn}`]);
    expect((await (await signInAs(t, 'vera')).call(calls.getMyAup)).json().standing).toMatchObject({
      state: 'due',
      reviewBy: dueOn,
    });
    at(358);
    await sweep();
    await sweep();
    expect(await mails('vera', 'aup-reminder')).toHaveLength(2);
    at(365 + 30);
    await sweep();
    expect(await flag(id)).toBeNull();
    const grace = await signInAs(t, 'vera');
    expect((await grace.call(calls.getMyAup)).json().standing).toMatchObject({
      state: 'due',
      reviewBy: addDays(dueOn, 30),
    });
    at(365 + 31);
    await sweep();
    await sweep();
    expect(await flag(id)).not.toBeNull();
    expect(await mails('vera', 'aup-reminder')).toHaveLength(2);
    expect((await auditActions(t, 'aup.overdue')).filter((e) => e.target_id === id)).toMatchObject([
      { actor_username: 'system', details: { version: 1, dueOn } },
    ]);
    // The BRMs are told in their digest (U3): Vera and Grace (activated on the same day).
    const digest = (await outbox(t, 'bruno@example.test'))
      .filter((m) => m.template === 'access-digest')
      .at(-1);
    expect(digest?.text_body).toContain(
      '2 vendors of Acme Imaging have not accepted the Acceptable Use Policy',
    );
  });

  it('while overdue answers 403 to every call but the attestation, the current user, the session and logout', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const requestId = await startLogin(t, client);
    const landed = await client.postForm('/api/saml/acs', {
      SAMLResponse: forgeResponse(validResponseOptions(t, 'vera', requestId)),
      RelayState: '/vendor/request-access',
    });
    // The sign-in lands on the policy.
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location).toBe('/attest');
    await client.fetchCsrf();

    const vendorCallable = (e: Endpoint) => ['vendor', 'vendorOrManager', 'signedIn'].includes(e.callers);
    const refused: string[] = [];
    for (const endpoint of allEndpoints.filter((e) => e.callers !== 'anyone')) {
      if (callsWhileAupOverdue.has(endpoint.operationId)) continue;
      const res = await t.app.inject({
        method: endpoint.method,
        url: endpoint.path.replace(/:[a-z]+/gi, 'x'),
        headers: client.headers({ 'x-csrf-token': client.csrfToken, 'content-type': 'application/json' }),
        ...(endpoint.method === 'GET' ? {} : { payload: '{}' }),
      });
      expect(res.statusCode, `${endpoint.method} ${endpoint.path}`).toBe(403);
      if (vendorCallable(endpoint)) {
        expect(res.json(), endpoint.operationId).toEqual({ errors: [aupMessages.blocked] });
        refused.push(endpoint.operationId);
      }
    }
    expect(refused).toEqual(expect.arrayContaining(['getCurrentAccess', 'requestAccess', 'changePassword']));
    // The allowed ones work.
    const me = await client.call(getCurrentUser);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'vera', mustAcceptAup: true });
    expect((await client.call(calls.getMyAup)).json().standing.state).toBe('overdue');
    expect((await client.post('/api/user/extend-session', {})).statusCode).not.toBe(403);

    // A version other than the newest is refused; the newest lifts the block at once.
    const accepted = await client.call(calls.acceptAup, { body: { version: 1 } });
    expect(accepted.statusCode).toBe(200);
    expect((await client.call(getCurrentUser)).json().mustAcceptAup).toBeUndefined();
    const access = await client.call(getCurrentAccess, { query: { username: 'vera' } });
    expect(access.statusCode, access.body).toBe(200);
    expect((await client.call(calls.getMyAup)).json().standing).toMatchObject({
      state: 'current',
      acceptedOn: localDate(clock.now(), ZONE),
    });
    expect((await auditActions(t, 'aup.accept')).at(-1)).toMatchObject({
      actor_username: 'vera',
      details: { version: 1 },
    });
  });

  it('refuses a publication with a missing title, text or date, or a date in the past or past a year', async () => {
    const today = localDate(clock.now(), ZONE);
    const cases: [object, string][] = [
      [{ title: ' ', bodyMd: 'Text', effectiveOn: today }, aupMessages.titleRequired],
      [{ title: 'x'.repeat(201), bodyMd: 'Text', effectiveOn: today }, aupMessages.titleTooLong],
      [{ title: 'Policy', bodyMd: '  \n', effectiveOn: today }, aupMessages.bodyRequired],
      [{ title: 'Policy', bodyMd: 'Text', effectiveOn: '' }, aupMessages.effectiveRequired],
      [{ title: 'Policy', bodyMd: 'Text', effectiveOn: '2027-02-30' }, 'Enter a real date'],
      [{ title: 'Policy', bodyMd: 'Text', effectiveOn: addDays(today, -1) }, aupMessages.effectivePast],
      [{ title: 'Policy', bodyMd: 'Text', effectiveOn: addDays(today, 366) }, aupMessages.effectiveTooFar],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/admin/aup/versions', body);
      expect(res.statusCode, message).toBe(400);
      expect(JSON.stringify(res.json()), message).toContain(message);
    }
    expect(await newest()).toBe(1);
  });

  it('publishes a version (U2 to asked vendors, aup.publish with its sha256); the vendor is due at once', async () => {
    const id = await vendor('wendy');
    await vendor('nora', false);
    const effectiveOn = addDays(localDate(clock.now(), ZONE), 14);
    const res = await admin.call(calls.publishAupVersion, {
      body: {
        title: 'Acceptable Use Policy 2028',
        bodyMd: '# Rules\n\n<script>x</script> **Be good.**',
        effectiveOn,
      },
    });
    expect(res.statusCode).toBe(200);
    const v = res.json();
    expect(v).toMatchObject({ version: 2, effectiveOn, publishedBy: 'ada' });
    expect(v.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await auditActions(t, 'aup.publish')).at(-1)).toMatchObject({
      actor_username: 'ada',
      details: { version: 2, sha256: v.sha256 },
    });
    const u2 = await mails('wendy', 'aup-published');
    expect(u2.map((m) => m.subject)).toEqual([`A new Acceptable Use Policy takes effect on ${effectiveOn}`]);
    expect(await mails('nora', 'aup-published')).toHaveLength(0);
    const wendy = await signInAs(t, 'wendy');
    expect((await wendy.call(calls.getMyAup)).json()).toMatchObject({
      policy: { version: 2 },
      standing: { state: 'due', dueOn: effectiveOn, blocksAfter: addDays(effectiveOn, 30) },
    });
    // The 30-day reminder would predate the publication: only the 7-day one goes out.
    await sweep();
    expect(await mails('wendy', 'aup-reminder')).toHaveLength(0);
    clock.advance('P8D');
    await sweep();
    expect(await mails('wendy', 'aup-reminder')).toHaveLength(1);
    // Accepting an older version is refused; the newest settles it.
    const old = await (await signInAs(t, 'wendy')).call(calls.acceptAup, { body: { version: 1 } });
    expect(old.statusCode).toBe(409);
    expect(old.json()).toEqual({ errors: [aupMessages.notNewest] });
    // Who has not accepted lists her (and Vera, who accepted version 1), not Nora (no grant).
    const list = await admin.call(calls.listAupNotAccepted, { query: { filter: 'wendy' } });
    expect(list.json()).toMatchObject({
      matching: 1,
      newestVersion: 2,
      items: [{ username: 'wendy', state: 'due' }],
    });
    const all = (await admin.call(calls.listAupNotAccepted, { query: { size: 100 } })).json();
    expect(all.items.map((r: { username: string }) => r.username)).toEqual(
      expect.arrayContaining(['vera', 'wendy']),
    );
    expect(all.items.map((r: { username: string }) => r.username)).not.toContain('nora');
    expect(await flag(id)).toBeNull();
  });

  it('neutralises formula cells in the CSV files and audits each export as report.export', async () => {
    const id = await vendor('formula');
    await t.ctx.db
      .updateTable('accounts')
      .set({ given_name: '=HYPERLINK("x")' })
      .where('id', '=', id)
      .execute();
    const csv = await admin.call(calls.exportAupNotAccepted, { query: {} });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe(
      'Username,Vendor,Email,Organizations,State,Version accepted,Accepted on,Due on,Blocked after',
    );
    expect(csv.body).toContain(`"'=HYPERLINK(""x"") Tester"`);
    const report = await admin.call(calls.exportAupReport, { query: {} });
    expect(report.body).toContain(`"'=HYPERLINK(""x"") Tester"`);
    expect(report.body).toMatch(
      /vera,Vera Tester,vera@example.test,Acme Imaging,1,\d{4}-[^,]+,127\.0\.0\.1,due/,
    );
    expect((await auditActions(t, 'report.export')).map((e) => e.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ report: 'aup-not-accepted' }),
        expect.objectContaining({ report: 'aup' }),
      ]),
    );
    const page = (await admin.call(calls.getAupReport, { query: { filter: 'vera' } })).json();
    expect(page).toMatchObject({
      matching: 1,
      items: [{ username: 'vera', version: 1, clientAddress: '127.0.0.1' }],
    });
  });

  it('lets vendors, BRMs, admins and auditors do only their part', async () => {
    const brm = await signInAs(t, 'bruno');
    const employee = await signInAs(t, 'emma');
    const auditor = await signInAs(t, 'audrey');
    const vendorClient = await signInAs(t, 'wendy');
    const body = { title: 'Policy', bodyMd: 'Text', effectiveOn: localDate(clock.now(), ZONE) };
    for (const c of [vendorClient, brm, employee]) {
      for (const e of [
        calls.listAupVersions,
        calls.listAupNotAccepted,
        calls.getAupReport,
        calls.exportAupReport,
      ]) {
        expect((await c.call(e, { query: {} } as never)).statusCode).toBe(403);
      }
      expect((await c.call(calls.publishAupVersion, { body })).statusCode).toBe(403);
    }
    for (const c of [brm, employee, auditor, admin]) {
      expect((await c.call(calls.getMyAup)).statusCode).toBe(403);
      expect((await c.call(calls.acceptAup, { body: { version: 1 } })).statusCode).toBe(403);
    }
    for (const e of [
      calls.listAupVersions,
      calls.listAupNotAccepted,
      calls.getAupReport,
      calls.exportAupReport,
    ]) {
      expect((await auditor.call(e, { query: {} } as never)).statusCode).toBe(200);
    }
    const refused = await auditor.call(calls.publishAupVersion, { body });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ errors: ['Unauthorized: Auditors have read-only access'] });
    // The reports-only auditor reads the auditors' report (Administration → Reports), nothing else.
    const reader = await signInAs(t, 'rita');
    for (const e of [calls.getAupReport, calls.exportAupReport])
      expect((await reader.call(e, { query: {} })).statusCode).toBe(200);
    for (const e of [calls.listAupVersions, calls.listAupNotAccepted])
      expect((await reader.call(e, { query: {} } as never)).statusCode).toBe(403);
    expect((await reader.call(calls.publishAupVersion, { body })).statusCode).toBe(403);
  });

  it('gives two admins publishing at once a version number each', async () => {
    const other = await signInAs(t, 'alan');
    const before = await newest();
    const body = (title: string) => ({
      title,
      bodyMd: `Text of ${title}`,
      effectiveOn: localDate(clock.now(), ZONE),
    });
    const [a, b] = await Promise.all([
      admin.call(calls.publishAupVersion, { body: body('A') }),
      other.call(calls.publishAupVersion, { body: body('B') }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.json().version, b.json().version].sort()).toEqual([before + 1, before + 2]);
    const versions = (await admin.call(calls.listAupVersions))
      .json()
      .versions.map((v: { version: number }) => v.version);
    expect(new Set(versions).size).toBe(versions.length);
  });
});
