import { activityDigest, type ActivityDigest } from '@pra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization, auditActions, outbox } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { localInstant } from '../../platform/local-time';
import { activityReviewDigest, dueWeek, weekOf } from './activity-review';
import { readPolicyBook, type Sweep } from './sweep';
import { sweepNow } from './sweeper';

// The weekly activity review's digest (GOVERNANCE.md §9.4, §9.5): exactly one week's events
// (Monday 00:00 to Sunday 23:59:59 local, across the DST change), generated once however many
// sweeps run or race, a snapshot that later audit rows do not change, A1 once per week, A2 once
// three days later while not reviewed, and the catch-up after downtime.

const ZONE = 'America/New_York';
const local = (date: string, hour: number, minute = 0, second = 0) =>
  localInstant(date, { hour, minute, second }, ZONE);
const HOUR = 3_600_000;

describe('the activity review week', () => {
  it('runs from Monday 00:00 to the next Monday 00:00 local, 167 or 169 hours across DST', () => {
    const spring = weekOf('2027-03-08', ZONE); // DST starts Sunday 2027-03-14
    expect(spring.end).toBe('2027-03-14');
    expect(spring.window.from.toISOString()).toBe('2027-03-08T05:00:00.000Z');
    expect(spring.window.until.toISOString()).toBe('2027-03-15T04:00:00.000Z');
    expect((spring.window.until.getTime() - spring.window.from.getTime()) / HOUR).toBe(167);
    const autumn = weekOf('2027-11-01', ZONE); // DST ends Sunday 2027-11-07
    expect((autumn.window.until.getTime() - autumn.window.from.getTime()) / HOUR).toBe(169);
  });

  it('is due from Monday 06:00 local: the week before', () => {
    expect(dueWeek(local('2027-03-15', 5, 59, 59), ZONE).start).toBe('2027-03-01');
    expect(dueWeek(local('2027-03-15', 6), ZONE).start).toBe('2027-03-08');
    expect(dueWeek(local('2027-03-21', 23, 59, 59), ZONE).start).toBe('2027-03-08');
    expect(dueWeek(local('2027-03-22', 6), ZONE).start).toBe('2027-03-15');
  });
});

describe.each(testDatabaseKinds)('the weekly activity review on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(local('2027-03-08', 10));
  const ids: Record<string, string> = {};
  const sweep = () => sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  const digestOf = async (monday: string): Promise<ActivityDigest | undefined> => {
    const row = await t.ctx.db
      .selectFrom('activity_reviews')
      .select('digest')
      .where('period_start', '=', monday)
      .executeTakeFirst();
    return row ? activityDigest.parse(row.digest) : undefined;
  };
  const section = (digest: ActivityDigest | undefined, key: string) => {
    const found = digest?.sections.find((s) => s.key === key);
    if (!found) throw new Error(`no section ${key}`);
    return found;
  };
  const mails = async (template: string) =>
    (await outbox(t, 'infosec@example.test')).filter((m) => m.template === template);
  let serial = 0;
  /** An audit row at an exact instant, as the app writes them. */
  async function event(
    action: string,
    at: Date,
    more: {
      outcome?: 'success' | 'failure';
      actor?: string;
      target?: string;
      details?: Record<string, unknown>;
    } = {},
  ) {
    serial += 1;
    await t.ctx.db
      .insertInto('audit_events')
      .values({
        occurred_at: at,
        action,
        outcome: more.outcome ?? 'success',
        actor_username: more.actor ?? 'system',
        target_id: more.target ? (ids[more.target] ?? null) : null,
        target_username: more.target ?? '',
        organization_id: ids.acme!,
        details: JSON.stringify({ serial, ...more.details }),
      })
      .execute();
  }

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.acme = await addOrganization(t, 'Acme Imaging');
    ids.infosec = await createAccount(t, { username: 'infosec', type: 'employee', isAdmin: true });
    ids.vic = await createAccount(t, { username: 'vic' });
    ids.val = await createAccount(t, { username: 'val' });
    ids.bea = await createAccount(t, { username: 'bea', type: 'employee', isEmployeeBrm: true });

    // The edges of the week 2027-03-08 .. 2027-03-14 (DST starts on its Sunday).
    await event('role.grant', local('2027-03-07', 23, 59, 59), { target: 'vic' }); // the week before
    await event('role.grant', local('2027-03-08', 0, 0, 0), { target: 'val', details: { sponsorId: 'x' } });
    await event('grant.expire', local('2027-03-14', 23, 59, 59), { target: 'vic' }); // EDT
    await event('account.terminate', local('2027-03-15', 0, 0, 0), { target: 'vic' }); // the week after
    // Inside it, one of each kind, and what must stay out.
    const mid = (hour: number) => local('2027-03-10', hour);
    await event('grant.extend', mid(9), { target: 'val', details: { from: '2027-03-20', to: '2027-06-20' } });
    await event('grant.set-end', mid(9), { target: 'val' });
    await event('review.decide', mid(10), { actor: 'bea', target: 'vic' });
    await event('review.apply', mid(10), { target: 'vic', details: { action: 'removed', byDefault: true } });
    await event('review.apply', mid(10), { target: 'val', details: { action: 'kept', byDefault: false } });
    await event('account.disable', mid(11), { target: 'vic', details: { reason: 'inactive' } });
    await event('account.disable', mid(11), { target: 'val', details: { reason: 'noAccess' } });
    await event('account.disable', mid(11), { target: 'val', details: { reason: 'departureReported' } });
    for (let i = 0; i < 3; i += 1)
      await event('signin.password', mid(12), { outcome: 'failure', target: 'vic' });
    await event('signin.mfa', mid(12), { outcome: 'failure', target: 'vic' });
    await event('signin.lockout', mid(12), { outcome: 'failure', target: 'vic' });
    await event('signin.password', mid(12), { outcome: 'failure', target: 'val' });
    await event('signin.password', mid(12), { outcome: 'failure' }); // an unknown username
    await event('signin.password', mid(12), { outcome: 'failure', target: 'bea' }); // not a vendor
    await event('signin.password', mid(12), { target: 'vic' }); // a success: not counted
    await event('mfa.reset', mid(13), { actor: 'bea', target: 'vic' });
    await event('passkey.register', mid(13), { actor: 'val', target: 'val' });
    await event('passkey.remove', mid(13), { actor: 'val', target: 'val' });
    await event('emergency.grant', mid(14), {
      actor: 'infosec',
      target: 'vic',
      details: { ticket: 'INC-1' },
    });
    await event('emergency.end', mid(15), { target: 'vic' });
    // Rita reported two colleagues before the week; both reports were dismissed in it (abuse?).
    await event('departure.report', local('2027-03-05', 9), {
      actor: 'rita',
      target: 'vic',
      details: { reportId: 'r1' },
    });
    await event('departure.report', mid(9), { actor: 'rita', target: 'val', details: { reportId: 'r2' } });
    await event('departure.dismiss', mid(16), { actor: 'bea', target: 'vic', details: { reportId: 'r1' } });
    await event('departure.dismiss', mid(17), { actor: 'bea', target: 'val', details: { reportId: 'r2' } });
    await event('departure.confirm', mid(17), { actor: 'bea', target: 'vic', details: { reportId: 'r3' } });
    await event('policy.change', mid(18), { actor: 'infosec' });
    await event('aup.publish', mid(18), { actor: 'infosec', details: { version: 2 } });
    await event('aup.accept', mid(19), { actor: 'val', target: 'val' });
    await event('aup.overdue', mid(19), { target: 'vic' });
    await event('mfa.reset', mid(19), { actor: 'bea', target: 'val', outcome: 'failure' }); // failed: out
  });
  afterAll(async () => t?.close());

  it('generates the week before from the first sweep on, once, with its own events only', async () => {
    await sweep(); // Monday 2027-03-08 10:00: the week 03-01 .. 03-07 is due
    await sweep();
    const before = await digestOf('2027-03-01');
    expect(section(before, 'newGrants').events.map((e) => e.target)).toEqual(['vic']);
    expect(section(before, 'expiries').count).toBe(0);
    expect(section(before, 'departureReports').events.map((e) => e.action)).toEqual(['departure.report']);
    expect(await mails('activity-review-ready')).toHaveLength(1);

    clock.set(local('2027-03-15', 5, 59, 59));
    await sweep();
    expect(await digestOf('2027-03-08')).toBeUndefined(); // not before Monday 06:00
  });

  it('on Monday 06:00 holds exactly the events of Monday 00:00 to Sunday 23:59:59 local', async () => {
    clock.set(local('2027-03-15', 6));
    await sweep();
    const d = await digestOf('2027-03-08');
    expect(d).toMatchObject({
      periodStart: '2027-03-08',
      periodEnd: '2027-03-14',
      from: '2027-03-08T05:00:00.000Z',
      until: '2027-03-15T04:00:00.000Z',
    });
    const counts = Object.fromEntries(d!.sections.map((s) => [s.key, s.count]));
    expect(counts).toEqual({
      newGrants: 1,
      extensions: 2,
      expiries: 1,
      reviewDecisions: 1,
      reviewDefaults: 1,
      disables: 2,
      terminations: 0,
      failedSignIns: 8, // 7 failures (one unknown, one of an employee) and 1 lockout
      mfaResets: 1,
      passkeyChanges: 2,
      emergencyGrants: 2,
      departureReports: 4,
      policyChanges: 2,
      policyAcceptances: 2,
    });
    expect(section(d, 'newGrants').events).toMatchObject([
      { action: 'role.grant', target: 'val', organization: 'Acme Imaging', at: '2027-03-08T05:00:00.000Z' },
    ]);
    expect(section(d, 'newGrants').events[0]!.detail).not.toContain('sponsorId'); // ids left out
    expect(section(d, 'expiries').events.map((e) => e.at)).toEqual(['2027-03-15T03:59:59.000Z']);
    expect(section(d, 'reviewDefaults').events.map((e) => e.target)).toEqual(['vic']);
    expect(
      section(d, 'disables')
        .events.map((e) => e.detail.split(',')[0])
        .sort(),
    ).toEqual(['reason: inactive', 'reason: noAccess']);
    const failed = section(d, 'failedSignIns');
    expect(
      failed.perVendor?.map(({ username, failures, lockouts }) => ({ username, failures, lockouts })),
    ).toEqual([
      { username: 'vic', failures: 4, lockouts: 1 },
      { username: 'val', failures: 1, lockouts: 0 },
    ]);
    expect(failed.unknownUsernames).toBe(1);
    expect(failed.perVendor?.[0]?.link).toBe(
      '/admin/audit?action=signin&outcome=failure&target=vic' +
        '&from=2027-03-08T05%3A00%3A00.000Z&to=2027-03-15T04%3A00%3A00.000Z',
    );
    expect(section(d, 'extensions').actions).toEqual([
      {
        action: 'grant.extend',
        count: 1,
        link: '/admin/audit?action=grant.extend&from=2027-03-08T05%3A00%3A00.000Z&to=2027-03-15T04%3A00%3A00.000Z',
      },
      expect.objectContaining({ action: 'grant.set-end', count: 1 }),
    ]);
    expect(section(d, 'departureReports').repeatedDismissals).toEqual([
      { reporter: 'rita', dismissed: 2, link: '/admin/audit?action=departure.report&actor=rita' },
    ]);
    expect(section(d, 'emergencyGrants').events[0]?.detail).toContain('ticket: INC-1');

    const generated = await auditActions(t, 'activity-review.generate');
    expect(generated.map((e) => e.details)).toEqual([
      expect.objectContaining({ periodStart: '2027-03-01', periodEnd: '2027-03-07' }),
      expect.objectContaining({ periodStart: '2027-03-08', periodEnd: '2027-03-14', events: 29 }),
    ]);
    const ready = await mails('activity-review-ready');
    expect(ready.map((m) => m.subject)).toEqual([
      'Weekly PRA access activity review for 2027-03-01 to 2027-03-07 is ready',
      'Weekly PRA access activity review for 2027-03-08 to 2027-03-14 is ready',
    ]);
    expect(ready[1]!.text_body).toContain('- Failed sign-ins and lockouts: 8');
    expect(ready[1]!.text_body).toContain('/admin/reports/activity?week=2027-03-08');
  });

  it('is a snapshot: an event recorded later in that week does not change it', async () => {
    const before = await digestOf('2027-03-08');
    await event('role.grant', local('2027-03-12', 9), { target: 'vic' });
    clock.set(local('2027-03-15', 7));
    await sweep();
    expect(await digestOf('2027-03-08')).toEqual(before);
    expect(await auditActions(t, 'activity-review.generate')).toHaveLength(2);
  });

  it('reminds InfoSec once, 3 days after, while the week is not reviewed (A2)', async () => {
    const reminders = async (period: string) =>
      (await mails('activity-review-reminder')).filter((m) => m.subject.includes(period));
    // The first week's reminder went with the sweep of 03-15 06:00 (the first after its 3 days).
    expect((await reminders('2027-03-01 to 2027-03-07')).map((m) => m.subject)).toEqual([
      'Reminder: weekly PRA access activity review for 2027-03-01 to 2027-03-07 is not reviewed yet',
    ]);
    await t.ctx.db
      .updateTable('activity_reviews')
      .set({ reviewed_by: ids.infosec!, reviewed_at: local('2027-03-16', 9), note: 'Seen.' })
      .where('period_start', '=', '2027-03-01')
      .execute();
    clock.set(local('2027-03-18', 5, 59));
    await sweep();
    expect(await reminders('2027-03-08 to 2027-03-14')).toHaveLength(0);
    clock.set(local('2027-03-18', 6)); // 72 hours after 03-15 06:00
    await sweep();
    clock.set(local('2027-03-19', 6));
    await sweep();
    expect(await reminders('2027-03-08 to 2027-03-14')).toHaveLength(1);
    expect(await reminders('2027-03-01 to 2027-03-07')).toHaveLength(1);
  });

  it('generates a week once when two sweeps race (lease or not): one row, one event, one A1', async () => {
    clock.set(local('2027-03-22', 6, 30));
    const sweepAt = async (): Promise<Sweep> => ({
      db: t.ctx.db,
      clock,
      config: t.ctx.config,
      log: t.app.log,
      at: clock.now(),
      policies: await readPolicyBook(t.ctx.db),
      keepLease: async () => undefined,
    });
    // The step itself twice at once (as if two instances ignored the lease), and two whole sweeps.
    const [a, b] = await Promise.all([
      activityReviewDigest.run(await sweepAt()),
      activityReviewDigest.run(await sweepAt()),
      sweep(),
      sweep(),
    ]);
    expect(a.failed + b.failed).toBe(0);
    const rows = await t.ctx.db.selectFrom('activity_reviews').select('period_start').execute();
    expect(rows.map((r) => r.period_start).sort()).toEqual(['2027-03-01', '2027-03-08', '2027-03-15']);
    const generated = await auditActions(t, 'activity-review.generate');
    expect(generated.filter((e) => e.details.periodStart === '2027-03-15')).toHaveLength(1);
    const ready = await mails('activity-review-ready');
    expect(ready.filter((m) => m.subject.includes('2027-03-15 to 2027-03-21'))).toHaveLength(1);
  });

  it('after downtime generates each missed week and announces only the newest', async () => {
    clock.set(local('2027-04-12', 7)); // three weeks without a sweep
    await sweep();
    const rows = await t.ctx.db
      .selectFrom('activity_reviews')
      .select('period_start')
      .orderBy('period_start')
      .execute();
    expect(rows.map((r) => r.period_start)).toEqual([
      '2027-03-01',
      '2027-03-08',
      '2027-03-15',
      '2027-03-22',
      '2027-03-29',
      '2027-04-05',
    ]);
    const ready = (await mails('activity-review-ready')).map((m) => m.subject);
    expect(ready.filter((s) => s.includes('2027-03-22') || s.includes('2027-03-29'))).toEqual([]);
    expect(ready.at(-1)).toContain('2027-04-05 to 2027-04-11');
    // The skipped weeks get no reminder either; the announced one does, once.
    clock.set(local('2027-04-16', 7));
    await sweep();
    const reminders = (await mails('activity-review-reminder')).map((m) => m.subject);
    expect(reminders.filter((s) => s.includes('2027-03-22') || s.includes('2027-03-29'))).toEqual([]);
    expect(reminders.filter((s) => s.includes('2027-04-05'))).toHaveLength(1);
  });
});
