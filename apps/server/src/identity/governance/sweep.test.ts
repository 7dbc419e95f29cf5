import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization, addRequest, auditActions, outbox } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { addDays, endOfLocalDay, localInstant } from '../../platform/local-time';
import { runSweep, type GovernanceStep } from './sweep';
import { sweepNow } from './sweeper';

const ZONE = 'America/New_York';
/** 10:00 in the hospital on a date. */
const morningOf = (date: string) => localInstant(date, { hour: 10, minute: 0, second: 0 }, ZONE);

describe.each(testDatabaseKinds)('the governance sweep on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(morningOf('2027-01-10'));
  const sweep = () => sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  let orgId: string;
  let boss: string;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    orgId = await addOrganization(t, 'Acme Imaging', ['acme.example']);
    boss = await createAccount(t, { username: 'boss', type: 'employee', isAdmin: true });
  });
  afterAll(async () => t?.close());

  async function vendorWithGrant(username: string, endsOn: string, organizationId = orgId) {
    const id = await createAccount(t, { username });
    await t.ctx.db
      .insertInto('role_grants')
      .values({
        account_id: id,
        organization_id: organizationId,
        granted_by: null,
        request_item_id: null,
        expires_at: endOfLocalDay(endsOn, ZONE),
      })
      .execute();
    return id;
  }
  const mails = async (username: string, template: string) =>
    (await outbox(t, `${username}@example.test`)).filter((m) => m.template === template);
  /** Every mail the vendor has, by template, in the order queued: "exactly the right mails". */
  const templates = async (username: string) =>
    (await outbox(t, `${username}@example.test`)).map((m) => m.template);
  const account = (id: string) =>
    t.ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('sends each notice once at 14, 7 and 1 days, ends the grant on time and disables the account in the same transaction', async () => {
    const endsOn = '2027-02-09';
    const id = await vendorWithGrant('vera', endsOn);
    const client = await signInAs(t, 'vera');
    // A sign-in records the account's last sign-in, by the app's clock.
    expect(new Date((await account(id)).last_sign_in_at!)).toEqual(clock.now());

    clock.set(morningOf('2027-01-10'));
    expect((await sweep()).ran).toBe(true);
    expect(await mails('vera', 'access-ending')).toHaveLength(0);

    for (const [daysBefore, count] of [
      [14, 1],
      [7, 2],
      [1, 3],
    ] as const) {
      clock.set(morningOf(addDays(endsOn, -daysBefore)));
      await sweep();
      await sweep(); // a second sweep changes nothing
      const sent = await mails('vera', 'access-ending');
      expect(sent).toHaveLength(count);
      expect(await templates('vera')).toEqual(Array<string>(count).fill('access-ending'));
      expect(sent.at(-1)!.subject).toBe(`Your access to Acme Imaging ends on ${endsOn}`);
      expect(sent.at(-1)!.text_body).toContain(`(${daysBefore === 1 ? '1 day' : `${daysBefore} days`} left)`);
    }
    expect(
      await t.ctx.db.selectFrom('role_grants').where('account_id', '=', id).selectAll().execute(),
    ).toHaveLength(1);

    clock.set(new Date(endOfLocalDay(endsOn, ZONE).getTime() + 60_000));
    await sweep();
    await sweep();
    expect(
      await t.ctx.db.selectFrom('role_grants').where('account_id', '=', id).selectAll().execute(),
    ).toHaveLength(0);
    const history = await t.ctx.db
      .selectFrom('grant_history')
      .selectAll()
      .where('account_id', '=', id)
      .execute();
    expect(history).toMatchObject([{ organization_id: orgId, end_reason: 'expired', ended_by: null }]);
    // (One transaction's mails share a timestamp: compared as a set.)
    expect((await templates('vera')).slice(3).sort()).toEqual(['access-ended', 'account-disabled-no-access']);
    expect(await account(id)).toMatchObject({ status: 'disabled', disabled_reason: 'noAccess' });
    // Its sessions ended with it.
    expect((await client.get('/api/user')).statusCode).toBe(401);
    // One transaction: PostgreSQL's now() (the audit rows' default) is the transaction's start.
    const [expired] = (await auditActions(t, 'grant.expire')).filter((e) => e.target_id === id);
    const [disabled] = (await auditActions(t, 'account.disable')).filter((e) => e.target_id === id);
    expect(expired).toMatchObject({ actor_username: 'system', organization_id: orgId });
    expect(disabled).toMatchObject({ actor_username: 'system', details: { reason: 'noAccess' } });
    expect(new Date(disabled!.occurred_at).getTime()).toBe(new Date(expired!.occurred_at).getTime());

    // A request asked before the disable is still pending: it ends with the account.
    const requestId = await addRequest(t, 'Add Access', [[orgId, 'pending']], { beneficiaryId: id });
    await t.ctx.db
      .updateTable('request_items')
      .set({ created_at: clock.now(), expires_at: new Date(clock.now().getTime() + 60 * 86_400_000) })
      .where('request_id', '=', requestId)
      .execute();
    // 30 days later the account is closed, once.
    clock.advance('P30D');
    await sweep();
    await sweep();
    expect(await account(id)).toMatchObject({ status: 'terminated' });
    expect((await templates('vera')).slice(5)).toEqual(['account-closed']);
    expect((await auditActions(t, 'account.terminate')).filter((e) => e.target_id === id)).toMatchObject([
      { actor_username: 'system', details: { reason: 'noAccess30d', cancelledItems: 1 } },
    ]);
    expect(
      await t.ctx.db
        .selectFrom('request_items')
        .select(['status', 'decision_comment'])
        .where('request_id', '=', requestId)
        .execute(),
    ).toEqual([{ status: 'cancelled', decision_comment: 'Account closed' }]);
    expect(
      await t.ctx.db
        .selectFrom('requests')
        .select('status')
        .where('id', '=', requestId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'cancelled' });
  });

  it('after a 10-day gap sends only the latest due notice and marks the earlier one skipped', async () => {
    clock.set(morningOf('2027-05-01'));
    const endsOn = '2027-05-21';
    await vendorWithGrant('gus', endsOn);
    await sweep();
    clock.set(morningOf(addDays(endsOn, -2)));
    await sweep();
    const sent = await mails('gus', 'access-ending');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text_body).toContain('(2 days left)');
    const notices = await t.ctx.db
      .selectFrom('governance_notices')
      .select(['milestone', 'skipped'])
      .where('subject_id', 'like', '%/2027-05-21')
      .orderBy('milestone')
      .execute();
    expect(notices).toEqual([
      { milestone: '14', skipped: true },
      { milestone: '7', skipped: false },
    ]);
  });

  it('keeps an account with another current grant enabled', async () => {
    clock.set(morningOf('2027-07-01'));
    const other = await addOrganization(t, 'Beta Labs');
    const id = await vendorWithGrant('tess', '2027-07-05');
    await t.ctx.db
      .insertInto('role_grants')
      .values({ account_id: id, organization_id: other, expires_at: endOfLocalDay('2027-09-01', ZONE) })
      .execute();
    clock.set(morningOf('2027-07-06'));
    await sweep();
    expect(await account(id)).toMatchObject({ status: 'active', disabled_reason: null });
    expect(await mails('tess', 'access-ended')).toHaveLength(1);
    expect(await mails('tess', 'account-disabled-no-access')).toHaveLength(0);
  });

  it('re-enables an account given access again within 30 days, which then is not closed', async () => {
    clock.set(morningOf('2027-09-01'));
    const id = await vendorWithGrant('rita', '2027-09-03');
    clock.set(morningOf('2027-09-04'));
    await sweep();
    expect(await account(id)).toMatchObject({ status: 'disabled', disabled_reason: 'noAccess' });
    // Ten days later a BRM gives access again (the call approvals and direct adds make).
    clock.advance('P10D');
    const { grantRole } = await import('../roles');
    await t.ctx.db.transaction().execute((tx) =>
      grantRole(tx, {
        actor: { id: boss, username: 'boss' },
        account: { id, username: 'rita' },
        organizationId: orgId,
        requestItemId: null,
        clientAddress: '127.0.0.1',
        at: clock.now(),
        expiresAt: endOfLocalDay('2028-03-01', ZONE),
      }),
    );
    expect(await account(id)).toMatchObject({ status: 'active', disabled_reason: null, disabled_at: null });
    expect((await auditActions(t, 'account.enable')).filter((e) => e.target_id === id)).toMatchObject([
      { actor_username: 'boss', details: { reason: 'grantAdded' } },
    ]);
    // Past the day it would have been closed: still active, no closing mail.
    clock.advance('P25D');
    await sweep();
    await sweep();
    expect(await account(id)).toMatchObject({ status: 'active' });
    expect((await templates('rita')).sort()).toEqual(['access-ended', 'account-disabled-no-access']);
  });

  it('after a 10-day gap across the end, ends the grant without the notice it missed', async () => {
    clock.set(morningOf('2027-11-01'));
    const endsOn = '2027-11-20';
    const id = await vendorWithGrant('walt', endsOn);
    clock.set(morningOf(addDays(endsOn, -7)));
    await sweep();
    expect(await templates('walt')).toEqual(['access-ending']);
    // Down from 5 days before the end to 5 days after: no "1 day left" mail after the end.
    clock.set(morningOf(addDays(endsOn, 5)));
    await sweep();
    await sweep();
    expect((await templates('walt')).sort()).toEqual([
      'access-ended',
      'access-ending',
      'account-disabled-no-access',
    ]);
    expect(await account(id)).toMatchObject({ status: 'disabled', disabled_reason: 'noAccess' });
    const [history] = await t.ctx.db
      .selectFrom('grant_history')
      .selectAll()
      .where('account_id', '=', id)
      .execute();
    // It ended at the sweep, and its end date stays what it was.
    expect(new Date(history!.ended_at)).toEqual(clock.now());
    expect(new Date(history!.expires_at)).toEqual(endOfLocalDay(endsOn, ZONE));
  });

  it('lets one sweep run at a time (the lease row)', async () => {
    const deps = { db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log };
    let inside = 0;
    let most = 0;
    const slow: GovernanceStep = {
      name: 'slow',
      run: async () => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 200));
        inside -= 1;
        return { done: 0, failed: 0 };
      },
    };
    const results = await Promise.all([runSweep(deps, [slow], 'one'), runSweep(deps, [slow], 'two')]);
    expect(results.map((r) => r.ran).sort()).toEqual([false, true]);
    expect(most).toBe(1);
    // Released at the end: the next sweep runs.
    expect((await runSweep(deps, [slow], 'two')).ran).toBe(true);
  });

  it('answers `admin governance status` and `governance run`', async () => {
    const { commands } = await import('../../features/administration/cli-commands');
    clock.set(morningOf('2028-01-01'));
    await vendorWithGrant('cli', '2028-01-01');
    let printed = '';
    const cli = {
      db: t.ctx.db,
      config: t.ctx.config,
      actor: { id: null, username: 'cli:tester', clientAddress: 'cli' },
      out: (text: string) => {
        printed += text;
      },
      readStdin: async () => '',
    };
    // The CLI reads the system clock (no TEST_CLOCK here): the grant ending on 2028-01-01 is due by then.
    await commands.governance!.run(cli, ['status'], {});
    expect(printed).toMatch(/Due in the next 24 h:\n {2}end-expired-grants: \d+/);
    printed = '';
    await commands.governance!.run(cli, ['run'], {});
    expect(printed).toMatch(/^Swept at .*\n {2}end-expired-grants: \d+ done, 0 failed/);
    expect(await auditActions(t, 'governance.run')).toMatchObject([
      { actor_username: 'cli:tester', outcome: 'success' },
    ]);
    await expect(commands.governance!.run(cli, ['later'], {})).rejects.toThrow('say run or status');
  });

  it('handles a batch in one transaction, and its rows one by one when the batch fails', async () => {
    const deps = { db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log };
    const { eachBatch } = await import('./sweep');
    const calls: number[][] = [];
    let failOnce = true;
    const step: GovernanceStep = {
      name: 'batch',
      run: (s) =>
        eachBatch<{ n: number }>(
          s,
          'batch',
          async (after) => [1, 2, 3].filter((n) => n > (after?.n ?? 0)).map((n) => ({ n })),
          async (_tx, rows) => {
            calls.push(rows.map((r) => r.n));
            if (rows.some((r) => r.n === 2) && failOnce) {
              if (rows.length === 1) failOnce = false;
              throw new Error('row 2 failed');
            }
            return rows.length;
          },
        ),
    };
    expect((await runSweep(deps, [step], 'batch')).steps.batch).toEqual({ done: 2, failed: 1 });
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect((await runSweep(deps, [step], 'batch')).steps.batch).toEqual({ done: 3, failed: 0 });
  });

  it('isolates a failing row: the others are done, the failure is retried next sweep', async () => {
    const deps = { db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log };
    const { eachRow } = await import('./sweep');
    const handled: number[] = [];
    let failOnce = true;
    const step: GovernanceStep = {
      name: 'rows',
      run: (s) =>
        eachRow<{ n: number }>(
          s,
          'rows',
          async (after) => [1, 2, 3].filter((n) => n > (after?.n ?? 0)).map((n) => ({ n })),
          async (_tx, row) => {
            if (row.n === 2 && failOnce) {
              failOnce = false;
              throw new Error('row 2 failed');
            }
            handled.push(row.n);
            return true;
          },
        ),
    };
    const first = await runSweep(deps, [step], 'iso');
    expect(first.steps.rows).toEqual({ done: 2, failed: 1 });
    expect(handled).toEqual([1, 3]);
    const second = await runSweep(deps, [step], 'iso');
    expect(second.steps.rows).toEqual({ done: 3, failed: 0 });
  });
});
