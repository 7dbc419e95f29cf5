import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization, auditActions, outbox } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { localInstant } from '../../platform/local-time';
import { sql } from 'kysely';
import { inactivity } from './dormancy';
import { readPolicyBook } from './sweep';
import { sweepNow } from './sweeper';

const ZONE = 'America/New_York';
const morningOf = (date: string) => localInstant(date, { hour: 10, minute: 0, second: 0 }, ZONE);
const DAY = 86_400_000;

describe.each(testDatabaseKinds)('dormant accounts on %s', (kind) => {
  let t: TestApp;
  const start = morningOf('2027-03-01');
  const clock = new TestClock(start);
  const sweep = () => sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  let orgId: string;
  let highOrgId: string;
  let brm: string;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    orgId = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    highOrgId = await addOrganization(t, 'Sharp Labs', ['sharp.example']);
    await t.ctx.db
      .updateTable('organizations')
      .set({ risk_tier: 'high' })
      .where('id', '=', highOrgId)
      .execute();
    brm = await createAccount(t, { username: 'bruno', type: 'employee', isEmployeeBrm: true });
    await t.ctx.db
      .insertInto('brm_assignments')
      .values([
        { account_id: brm, organization_id: orgId },
        { account_id: brm, organization_id: highOrgId },
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  /** A vendor with a grant (a sponsor of record), its clock started at `since`. */
  async function vendor(
    username: string,
    since: Date,
    organizationId = orgId,
    status: 'active' | 'pendingActivation' = 'active',
  ) {
    const id = await createAccount(t, { username, status });
    await t.ctx.db.updateTable('accounts').set({ created_at: since }).where('id', '=', id).execute();
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: id,
        organization_id: organizationId,
        granted_by: brm,
        sponsor_id: brm,
        request_item_id: null,
        expires_at: new Date(since.getTime() + 400 * DAY),
      })
      .execute();
    return id;
  }
  const account = (id: string) =>
    t.ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  // The inactivity mails only: a high-tier vendor also gets the security-key requirement's W3 from
  // the sweep's passkey-grace step (GOVERNANCE.md §7.4), which is passkey-grace.test.ts's subject.
  const templates = async (username: string) =>
    (await outbox(t, `${username}@example.test`))
      .map((m) => m.template)
      .filter((template) => template !== 'passkey-required');
  const at = (days: number) => clock.set(new Date(start.getTime() + days * DAY));

  it('warns at 14 and 7 days, disables on day 90, closes 30 days later; employees are never touched', async () => {
    const id = await vendor('dora', start);
    const idleBrm = await createAccount(t, { username: 'emil', type: 'employee' });
    await t.ctx.db.updateTable('accounts').set({ created_at: start }).where('id', '=', idleBrm).execute();

    at(75);
    await sweep();
    expect(await templates('dora')).toEqual([]);
    at(76);
    await sweep();
    await sweep();
    expect(await templates('dora')).toEqual(['inactivity-warning']);
    const [d1] = await outbox(t, 'dora@example.test');
    expect(d1!.subject).toBe('Sign in by 2027-05-30 to keep your PRA account');
    expect(d1!.text_body).toContain('Acme Imaging: Bruno Tester, bruno@example.test');
    // Manage Users shows the warning: the last day a sign-in keeps the account.
    await createAccount(t, { username: 'wanda', type: 'employee', isAdmin: true });
    const users = await (await signInAs(t, 'wanda')).get('/api/brm/users?page=1&filter=dora');
    expect(users.json<{ items: { username: string; signInDueBy?: string }[] }>().items).toMatchObject([
      { username: 'dora', signInDueBy: '2027-05-30' },
    ]);
    at(83);
    await sweep();
    expect(await templates('dora')).toEqual(['inactivity-warning', 'inactivity-warning']);
    at(89);
    await sweep();
    expect((await account(id)).status).toBe('active');
    at(90);
    await sweep();
    await sweep();
    expect(await account(id)).toMatchObject({ status: 'disabled', disabled_reason: 'inactive' });
    expect((await templates('dora')).at(-1)).toBe('account-disabled-inactive');
    expect((await outbox(t, 'dora@example.test')).at(-1)!.subject).toBe(
      'Your PRA account was disabled after 90 days without sign-in',
    );
    expect(
      (await auditActions(t, 'account.inactivity-warning'))
        .filter((e) => e.target_id === id)
        .map((e) => e.details),
    ).toMatchObject([{ milestone: 14 }, { milestone: 7 }]);
    expect((await auditActions(t, 'account.disable')).filter((e) => e.target_id === id)).toMatchObject([
      { actor_username: 'system', details: { reason: 'inactive', inactiveDays: 90 } },
    ]);
    // The next day's digest tells Bruno (her primary BRM and sponsor), once.
    at(91);
    await sweep();
    await sweep();
    const digests = (await outbox(t, 'bruno@example.test')).filter((m) => m.template === 'access-digest');
    expect(digests.filter((m) => m.text_body.includes('Dora Tester'))).toHaveLength(1);
    expect(digests.at(-1)!.text_body).toContain(
      'Accounts disabled after too long without a sign-in (Enable User re-enables one; closed otherwise):\n- Dora Tester: disabled on 2027-05-30, closes on 2027-06-29\n',
    );
    at(119);
    await sweep();
    expect((await account(id)).status).toBe('disabled');
    at(120);
    await sweep();
    await sweep();
    expect((await account(id)).status).toBe('terminated');
    expect((await templates('dora')).at(-1)).toBe('account-closed');
    expect(
      await t.ctx.db.selectFrom('role_grants').selectAll().where('account_id', '=', id).execute(),
    ).toEqual([]);
    expect((await auditActions(t, 'account.terminate')).filter((e) => e.target_id === id)).toMatchObject([
      { details: { reason: 'inactive30d' } },
    ]);
    // The employee idle for 120 days is untouched.
    expect((await account(idleBrm)).status).toBe('active');
  });

  it('a sign-in on day 89 withdraws the warnings; the next series counts from it', async () => {
    clock.set(start);
    const base = new Date(start.getTime() + 200 * DAY);
    clock.set(base);
    const id = await vendor('sami', base);
    const after = (days: number) => clock.set(new Date(base.getTime() + days * DAY));
    after(76);
    await sweep();
    after(89);
    await sweep();
    expect(await templates('sami')).toEqual(['inactivity-warning', 'inactivity-warning']);
    await signInAs(t, 'sami');
    after(90);
    await sweep();
    after(120);
    await sweep();
    expect((await account(id)).status).toBe('active');
    expect(await templates('sami')).toEqual(['inactivity-warning', 'inactivity-warning']);
    // 90 days after that sign-in it is disabled.
    after(89 + 90);
    await sweep();
    expect((await account(id)).status).toBe('disabled');
  });

  it('Enable User restarts the clock; a high-tier account is disabled after 35 days, warned 7 and 1 days before', async () => {
    const base = new Date(start.getTime() + 500 * DAY);
    clock.set(base);
    const id = await vendor('hana', base, highOrgId);
    const after = (days: number) => clock.set(new Date(base.getTime() + days * DAY));
    after(28);
    await sweep();
    after(34);
    await sweep();
    expect(await templates('hana')).toEqual(['inactivity-warning', 'inactivity-warning']);
    after(35);
    await sweep();
    expect(await account(id)).toMatchObject({ status: 'disabled', disabled_reason: 'inactive' });

    after(40);
    const admin = await createAccount(t, { username: 'ada', type: 'employee', isAdmin: true });
    const client = await signInAs(t, 'ada');
    const res = await client.post('/api/brm/users/enable-or-disable', {
      targetUsername: 'hana',
      enable: true,
    });
    expect(res.statusCode).toBe(200);
    expect(await account(id)).toMatchObject({ status: 'active', disabled_reason: null });
    expect((await auditActions(t, 'user.enable')).filter((e) => e.target_id === id)).toMatchObject([
      { actor_id: admin, details: { previousStatus: 'disabled', reason: 'inactive' } },
    ]);
    // 34 days after the re-enable: still active, and warned again (a new series).
    after(40 + 34);
    await sweep();
    expect((await account(id)).status).toBe('active');
    expect((await templates('hana')).filter((x) => x === 'inactivity-warning')).toHaveLength(3);
    after(40 + 35);
    await sweep();
    expect((await account(id)).status).toBe('disabled');
  });

  it('closes a never-activated account 30 days after its approval', async () => {
    const base = new Date(start.getTime() + 700 * DAY);
    clock.set(base);
    const id = await vendor('nina', base, orgId, 'pendingActivation');
    clock.set(new Date(base.getTime() + 29 * DAY));
    await sweep();
    expect((await account(id)).status).toBe('pendingActivation');
    clock.set(new Date(base.getTime() + 30 * DAY));
    await sweep();
    expect((await account(id)).status).toBe('terminated');
    expect((await auditActions(t, 'account.terminate')).filter((e) => e.target_id === id)).toMatchObject([
      { details: { reason: 'neverActivated' } },
    ]);
  });

  it('a sign-in racing the disable leaves the account either signed in and active or disabled without a session', async () => {
    const base = new Date(start.getTime() + 900 * DAY);
    clock.set(base);
    const id = await vendor('rhea', base);
    clock.set(new Date(base.getTime() + 90 * DAY));
    const [signedIn] = await Promise.allSettled([signInAs(t, 'rhea'), sweep()]);
    const row = await account(id);
    if (row.status === 'active') {
      expect(new Date(row.last_sign_in_at!).getTime()).toBe(clock.now().getTime());
    } else {
      expect(row.disabled_reason).toBe('inactive');
      if (signedIn.status === 'fulfilled')
        expect((await signedIn.value.get('/api/user')).statusCode).toBe(401);
    }
  });

  /** The step alone, as an instance holding no lease runs it (two may, after a lost lease). */
  const inactivityAlone = async () =>
    inactivity.run({
      db: t.ctx.db,
      clock,
      config: t.ctx.config,
      log: t.app.log,
      at: clock.now(),
      policies: await readPolicyBook(t.ctx.db),
      keepLease: async () => undefined,
    });
  const eventsOf = async (action: string, ids: string[]) =>
    (await auditActions(t, action)).filter((e) => ids.includes(e.target_id!));

  it('two instances at once over the same idle vendors warn or disable each once: one event and one mail each', async () => {
    const base = new Date(start.getTime() + 1100 * DAY);
    clock.set(base);
    const later = new Date(base.getTime() + 5 * DAY);
    const warned = [await vendor('wes', later), await vendor('wyn', later), await vendor('wil', later)];
    const disabled = [await vendor('dax', base), await vendor('dev', base)];
    clock.set(new Date(base.getTime() + 90 * DAY)); // day 85 of the first three's clock
    const [a, b] = await Promise.all([inactivityAlone(), inactivityAlone()]);
    expect(a.failed + b.failed).toBe(0);
    for (const id of disabled) expect(await account(id)).toMatchObject({ status: 'disabled' });
    for (const id of warned) expect((await account(id)).status).toBe('active');
    expect(await eventsOf('account.disable', disabled)).toHaveLength(2);
    expect(await eventsOf('account.inactivity-warning', warned)).toHaveLength(3);
    for (const username of ['dax', 'dev'])
      expect(await templates(username)).toEqual(['account-disabled-inactive']);
    for (const username of ['wes', 'wyn', 'wil'])
      expect(await templates(username)).toEqual(['inactivity-warning']);
    // Again: nothing more.
    await Promise.all([inactivityAlone(), inactivityAlone()]);
    expect(await eventsOf('account.disable', disabled)).toHaveLength(2);
    expect(await eventsOf('account.inactivity-warning', warned)).toHaveLength(3);
  });

  it('a batch stopped midway leaves nothing half-done: its vendors go one by one, the one that fails is done next sweep, once', async () => {
    const base = new Date(start.getTime() + 1300 * DAY);
    clock.set(base);
    const ids = [await vendor('kai', base), await vendor('kim', base), await vendor('kit', base)];
    clock.set(new Date(base.getTime() + 90 * DAY));
    // Kim's mail fails (as a stop would, after the batch wrote the others' rows): the batch's
    // transaction rolls back whole.
    await sql`create function pra_test_refuse_kim() returns trigger language plpgsql as $$
      begin if new.recipient = 'kim@example.test' then raise exception 'refused'; end if; return new; end $$`.execute(
      t.ctx.db,
    );
    await sql`create trigger pra_test_refuse_kim before insert on outbox
      for each row execute function pra_test_refuse_kim()`.execute(t.ctx.db);
    try {
      expect(await inactivityAlone()).toMatchObject({ failed: 1 });
    } finally {
      await sql`drop trigger pra_test_refuse_kim on outbox`.execute(t.ctx.db);
      await sql`drop function pra_test_refuse_kim()`.execute(t.ctx.db);
    }
    expect((await account(ids[1]!)).status).toBe('active');
    expect(await eventsOf('account.disable', [ids[1]!])).toEqual([]);
    for (const id of [ids[0]!, ids[2]!]) expect((await account(id)).status).toBe('disabled');
    expect(await inactivityAlone()).toMatchObject({ failed: 0 });
    for (const id of ids) expect((await account(id)).status).toBe('disabled');
    expect(await eventsOf('account.disable', ids)).toHaveLength(3);
    for (const username of ['kai', 'kim', 'kit'])
      expect(await templates(username)).toEqual(['account-disabled-inactive']);
  });
});
