import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEmailFile, terminateMessages } from '@pra/contracts';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm, auditActions, countRows } from '../../../test/support/world';
import { NO_VENDOR_OF_YOURS } from './result-lines';

const URL = '/api/brm/terminate-vendors';
const NOT_BRM = 'Unauthorized: User does not have a BRM role';

async function grant(t: TestApp, accountId: string, organizationId: string) {
  await t.ctx.db
    .insertInto('role_grants')
    .values({
      account_id: accountId,
      organization_id: organizationId,
      granted_by: null,
      request_item_id: null,
    })
    .execute();
}

async function stateOf(t: TestApp, username: string) {
  const account = await t.ctx.db
    .selectFrom('accounts')
    .select(['id', 'status'])
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  const roles = await t.ctx.db
    .selectFrom('role_grants as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .select('o.name')
    .where('g.account_id', '=', account.id)
    .orderBy('o.name')
    .execute();
  return { status: account.status, roles: roles.map((r) => r.name) };
}

describe.each(testDatabaseKinds)('POST /api/brm/terminate-vendors on %s', (kind) => {
  let t: TestApp;
  let acme: string;
  const c: Record<string, TestClient> = {};
  beforeAll(async () => {
    t = await createTestApp(kind);
    acme = await addOrganization(t, 'Acme Imaging');
    const globex = await addOrganization(t, 'Globex Health IT');
    const brm = await createAccount(t, { username: 'brmacme', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brm, acme);
    await createAccount(t, { username: 'adminone', type: 'employee', isAdmin: true });
    await createAccount(t, { username: 'plainemployee', type: 'employee' });
    await grant(t, await createAccount(t, { username: 'vacme' }), acme);
    await grant(t, await createAccount(t, { username: 'vpending', status: 'pendingActivation' }), acme);
    await grant(t, await createAccount(t, { username: 'vglobex' }), globex);
    const both = await createAccount(t, { username: 'vboth' });
    await grant(t, both, acme);
    await grant(t, both, globex);
    for (const name of ['brmacme', 'adminone', 'plainemployee', 'vacme']) c[name] = await signInAs(t, name);
  });
  afterAll(async () => t?.close());

  it('refuses vendors, plain employees and admins without the BRM flag (403), anonymous callers (401)', async () => {
    for (const name of ['vacme', 'plainemployee', 'adminone']) {
      const res = await c[name]!.post(URL, { emails: ['vglobex@example.test'] });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errors: [NOT_BRM] });
    }
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrf();
    expect((await anonymous.post(URL, { emails: ['vglobex@example.test'] })).statusCode).toBe(401);
    expect(await stateOf(t, 'vglobex')).toEqual({ status: 'active', roles: ['Globex Health IT'] });
  });

  it('previews without changing anything, then terminates: one line per email in the order given', async () => {
    const vendor = await signInAs(t, 'vpending').catch(() => null); // pending accounts cannot sign in
    expect(vendor).toBeNull();
    const vboth = await signInAs(t, 'vboth');
    const emails = [
      'vboth@example.test',
      'VACME@example.test',
      'nobody@example.test',
      'vglobex@example.test',
      'vacme@example.test',
      'vpending@example.test',
    ];
    const audits = await countRows(t, 'audit_events');
    const preview = await c.brmacme!.post(URL, { emails, dryRun: true });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual([
      'Account vboth: would lose its roles in Acme Imaging; it keeps its access to other organizations.',
      'Account vacme: would lose its roles in Acme Imaging; the account would be terminated and its sessions ended.',
      NO_VENDOR_OF_YOURS,
      NO_VENDOR_OF_YOURS,
      'Listed earlier in the file: handled once.',
      'Account vpending: would lose its roles in Acme Imaging; the account would be terminated and its sessions ended.',
    ]);
    expect(await countRows(t, 'audit_events')).toBe(audits);
    expect(await stateOf(t, 'vacme')).toEqual({ status: 'active', roles: ['Acme Imaging'] });

    const res = await c.brmacme!.post(URL, { emails });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      'Account vboth: roles removed from Acme Imaging; it keeps its access to other organizations.',
      'Account vacme: roles removed from Acme Imaging; account terminated, sessions ended.',
      NO_VENDOR_OF_YOURS,
      NO_VENDOR_OF_YOURS,
      'Listed earlier in the file: handled once.',
      'Account vpending: roles removed from Acme Imaging; account terminated, sessions ended.',
    ]);
    expect(await stateOf(t, 'vboth')).toEqual({ status: 'active', roles: ['Globex Health IT'] });
    expect(await stateOf(t, 'vacme')).toEqual({ status: 'terminated', roles: [] });
    expect(await stateOf(t, 'vpending')).toEqual({ status: 'terminated', roles: [] });
    expect(await stateOf(t, 'vglobex')).toEqual({ status: 'active', roles: ['Globex Health IT'] });
    // The terminated vendor's open session ended; the one keeping a role still works.
    expect((await c.vacme!.get('/api/user')).statusCode).toBe(401);
    expect((await vboth.get('/api/user')).statusCode).toBe(200);
    expect(await auditActions(t, 'account.terminate')).toHaveLength(2);
    expect(await auditActions(t, 'role.remove')).toHaveLength(3);

    const again = await c.brmacme!.post(URL, { emails: ['vacme@example.test'] });
    expect(again.json()).toEqual([NO_VENDOR_OF_YOURS]);
  });

  it('names no account outside the BRM organizations: employees, admins, other organizations’ vendors, terminated and unknown emails get one neutral line', async () => {
    const vshared = await createAccount(t, { username: 'vshared' });
    await grant(t, vshared, acme);
    // An employee with the same email as the BRM's vendor: only the vendor is named.
    const twin = await createAccount(t, { username: 'emptwin', type: 'employee' });
    await t.ctx.db
      .updateTable('accounts')
      .set({ email: 'vshared@example.test' })
      .where('id', '=', twin)
      .execute();
    const outsiders = [
      'plainemployee@example.test',
      'adminone@example.test',
      'brmacme@example.test',
      'vglobex@example.test',
      'vacme@example.test', // terminated by the previous test
      'nobody@example.test',
    ];
    for (const dryRun of [true, false]) {
      const res = await c.brmacme!.post(URL, { emails: [...outsiders, 'vshared@example.test'], dryRun });
      expect(res.statusCode).toBe(200);
      const lines: string[] = res.json();
      expect(lines.slice(0, outsiders.length)).toEqual(outsiders.map(() => NO_VENDOR_OF_YOURS));
      expect(lines.at(-1)).toMatch(/^Account vshared: /);
      expect(lines.join(' ')).not.toMatch(/emptwin|plainemployee|adminone|brmacme|vglobex|vacme/);
    }
    expect(await stateOf(t, 'vglobex')).toEqual({ status: 'active', roles: ['Globex Health IT'] });
    expect(await stateOf(t, 'emptwin')).toEqual({ status: 'active', roles: [] });
    expect(await stateOf(t, 'vshared')).toEqual({ status: 'terminated', roles: [] });
  });

  it.each([
    ['no emails', { emails: [] }, terminateMessages.noEmails],
    ['an invalid email', { emails: ['not-an-email'] }, 'emails.0: Invalid email'],
    ['an extra field', { emails: ['a@example.test'], force: true }, 'Unrecognized key: "force"'],
  ])('answers 400 to %s', async (_name, body, message) => {
    const res = await c.brmacme!.post(URL, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.join(' ')).toContain(message);
  });

  it('answers 400 with the cap message above 10,000 emails', async () => {
    const emails = Array.from({ length: 10_001 }, (_, i) => `x${i}@example.test`);
    const res = await c.brmacme!.post(URL, { emails });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.join(' ')).toContain(terminateMessages.tooMany);
  });

  it('processes a file of 10,000 emails within the cap without a 500', async () => {
    // 200 vendors of the BRM's organization among 9,800 unknown addresses.
    const ids: string[] = [];
    for (let i = 0; i < 200; i += 1) ids.push(await createAccount(t, { username: `bulk${i}` }));
    await t.ctx.db
      .insertInto('role_grants')
      .values(
        ids.map((id) => ({ account_id: id, organization_id: acme, granted_by: null, request_item_id: null })),
      )
      .execute();
    const emails = Array.from({ length: 10_000 }, (_, i) =>
      i % 50 === 0 ? `bulk${i / 50}@example.test` : `unknown${i}@example.test`,
    );
    const started = performance.now();
    const res = await c.brmacme!.post(URL, { emails });
    const seconds = (performance.now() - started) / 1000;
    console.log(`terminate-vendors: 10,000 emails (200 terminations) on ${kind} in ${seconds.toFixed(2)} s`);
    expect(res.statusCode).toBe(200);
    const lines: string[] = res.json();
    expect(lines).toHaveLength(10_000);
    expect(lines.filter((l) => l.endsWith('account terminated, sessions ended.'))).toHaveLength(200);
    expect((await stateOf(t, 'bulk199')).status).toBe('terminated');
  }, 120_000);
});

describe('the Terminate Vendors file check (contracts parseEmailFile)', () => {
  it('splits on whitespace and commas', () => {
    expect(parseEmailFile('a@x.example\r\nb@x.example c@x.example,d@x.example\n')).toEqual({
      emails: ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example'],
    });
  });
  it.each([
    ['an empty file', '', terminateMessages.emptyFile],
    ['only blanks', ' \n\t\n', terminateMessages.emptyFile],
    ['a header row', 'email\na@x.example', terminateMessages.invalidEmails],
    ['an invalid address', 'a@x.example\nnot an email', terminateMessages.invalidEmails],
  ])('refuses %s with the spec message', (_name, text, error) => {
    expect(parseEmailFile(text)).toEqual({ error });
  });
  it('refuses more than 10,000 addresses', () => {
    const text = Array.from({ length: 10_001 }, (_, i) => `a${i}@x.example`).join('\n');
    expect(parseEmailFile(text)).toEqual({ error: terminateMessages.tooMany });
  });
});

describe('Terminate Vendors while the identity service is in maintenance', () => {
  it('answers 503', async () => {
    const t = await createTestApp('pglite', { IIQ_MAINTENANCE: 'true' });
    try {
      await createAccount(t, { username: 'brmone', type: 'employee', isEmployeeBrm: true });
      const brm = await signInAs(t, 'brmone');
      expect((await brm.post(URL, { emails: ['a@example.test'] })).statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });
});
