import {
  activityReviewMessages as text,
  type ActivityReviewDetail,
  type ActivityReviewList,
} from '@pra/contracts';
import {
  getActivityReview,
  listActivityReviews,
  signOffActivityReview,
} from '@pra/contracts/endpoints/activity-review';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { auditActions } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { localInstant } from '../../platform/local-time';
import { sweepNow } from '../../identity/governance/sweeper';

// Administration → Reports → Activity Review (GOVERNANCE.md §9.2): who may read and sign off, the
// required note, the sign-off shown as "Reviewed by {name} on {date}", and two admins at once.

const ZONE = 'America/New_York';
const local = (date: string, hour: number, minute = 0) =>
  localInstant(date, { hour, minute, second: 0 }, ZONE);

describe.each(testDatabaseKinds)('the Activity Review calls on %s', (kind) => {
  let t: TestApp;
  const clock = new TestClock(local('2027-05-10', 7)); // a Monday after 06:00: 05-03 .. 05-09 is due
  const c: Record<string, TestClient> = {};
  const ids: Record<string, string> = {};
  const week = { week: '2027-05-03' };

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    ids.vendor = await createAccount(t, { username: 'vendor' });
    ids.brm = await createAccount(t, { username: 'brm', type: 'employee', isEmployeeBrm: true });
    ids.employee = await createAccount(t, { username: 'employee', type: 'employee' });
    for (const name of ['ada', 'abe', 'auditor'])
      ids[name] = await createAccount(t, { username: name, type: 'employee', isAdmin: true });
    // The reports-only auditor: an employee with the auditor flag and no admin flag.
    ids.rauditor = await createAccount(t, { username: 'rauditor', type: 'employee' });
    for (const name of ['auditor', 'rauditor'])
      await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', ids[name]!).execute();
    for (const name of ['vendor', 'brm', 'employee', 'ada', 'abe', 'auditor', 'rauditor'])
      c[name] = await signInAs(t, name);
    c.anonymous = new TestClient(t.app);
    await c.anonymous.fetchCsrf();
    await sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  });
  afterAll(async () => t?.close());

  it('refuses vendors, BRMs and employees; lets admins and auditors (reports-only too) read', async () => {
    for (const who of ['vendor', 'brm', 'employee']) {
      for (const res of [
        await c[who]!.call(listActivityReviews),
        await c[who]!.call(getActivityReview, { params: week }),
        await c[who]!.call(signOffActivityReview, { params: week, body: { note: 'Looked.' } }),
      ])
        expect([res.statusCode, res.json()], who).toEqual([
          403,
          { errors: ['Unauthorized: User is not an admin'] },
        ]);
    }
    const anonymous = await c.anonymous!.call(listActivityReviews);
    expect(anonymous.statusCode).toBe(401);
    for (const who of ['ada', 'auditor', 'rauditor']) {
      const list = await c[who]!.call(listActivityReviews);
      expect(list.statusCode, who).toBe(200);
      expect(list.json<ActivityReviewList>().reviews).toEqual([
        expect.objectContaining({
          periodStart: '2027-05-03',
          periodEnd: '2027-05-09',
          period: '2027-05-03 to 2027-05-09',
          status: 'generated',
          reviewed: null,
        }),
      ]);
      const one = await c[who]!.call(getActivityReview, { params: week });
      expect(one.statusCode, who).toBe(200);
      expect(one.json<ActivityReviewDetail>().digest.sections).toHaveLength(14);
    }
  });

  it('refuses the auditor’s sign-off (read-only), audited as refused', async () => {
    const res = await c.auditor!.call(signOffActivityReview, { params: week, body: { note: 'Looked.' } });
    expect([res.statusCode, res.json()]).toEqual([
      403,
      { errors: ['Unauthorized: Auditors have read-only access'] },
    ]);
    expect(await auditActions(t, 'activity-review.sign-off')).toHaveLength(0);
  });

  it('requires a note, refuses bad input and unknown weeks, and changes nothing then', async () => {
    for (const note of ['', '   ', '\n\n']) {
      const res = await c.ada!.call(signOffActivityReview, { params: week, body: { note } });
      expect([res.statusCode, res.json()], JSON.stringify(note)).toEqual([
        400,
        { errors: [text.noteRequired] },
      ]);
    }
    const long = await c.ada!.call(signOffActivityReview, { params: week, body: { note: 'x'.repeat(2001) } });
    expect(long.statusCode).toBe(400);
    const control = await c.ada!.call(signOffActivityReview, { params: week, body: { note: 'a\u0007b' } });
    expect(control.statusCode).toBe(400);
    const badWeek = await c.ada!.call(signOffActivityReview, {
      params: { week: 'monday' },
      body: { note: 'x' },
    });
    expect(badWeek.statusCode).toBe(400);
    const missing = await c.ada!.call(signOffActivityReview, {
      params: { week: '2020-01-06' },
      body: { note: 'x' },
    });
    expect([missing.statusCode, missing.json()]).toEqual([404, { errors: [text.notFound] }]);
    const unknown = await c.ada!.call(getActivityReview, { params: { week: '2020-01-06' } });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { errors: [text.notFound] }]);
    const row = await t.ctx.db.selectFrom('activity_reviews').selectAll().executeTakeFirstOrThrow();
    expect([row.reviewed_at, row.reviewed_by, row.note]).toEqual([null, null, null]);
  });

  it('signs off once when two admins mark the week reviewed at once; the other is told who was first', async () => {
    clock.set(local('2027-05-11', 9, 30));
    const [first, second] = await Promise.all([
      c.ada!.call(signOffActivityReview, { params: week, body: { note: '  Checked every lockout.  ' } }),
      c.abe!.call(signOffActivityReview, { params: week, body: { note: 'All fine.' } }),
    ]);
    const codes = [first.statusCode, second.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const winner = first.statusCode === 200 ? 'Ada Tester' : 'Abe Tester';
    const loser = first.statusCode === 200 ? second : first;
    expect(loser.json()).toEqual({ errors: [text.alreadyReviewed(winner, '2027-05-11')] });
    const detail = (await c.auditor!.call(getActivityReview, { params: week })).json<ActivityReviewDetail>();
    expect(detail).toMatchObject({
      status: 'reviewed',
      reviewed: { name: winner, on: '2027-05-11', at: local('2027-05-11', 9, 30).toISOString() },
    });
    expect(text.reviewed(detail.reviewed!.name, detail.reviewed!.on)).toBe(
      `Reviewed by ${winner} on 2027-05-11`,
    );
    const audits = await auditActions(t, 'activity-review.sign-off');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      outcome: 'success',
      actor_username: winner === 'Ada Tester' ? 'ada' : 'abe',
      details: {
        periodStart: '2027-05-03',
        periodEnd: '2027-05-09',
        note: winner === 'Ada Tester' ? 'Checked every lockout.' : 'All fine.',
      },
    });
    // Signing off again later: the same refusal, nothing changed.
    const again = await c.ada!.call(signOffActivityReview, { params: week, body: { note: 'Again.' } });
    expect([again.statusCode, again.json()]).toEqual([
      409,
      { errors: [text.alreadyReviewed(winner, '2027-05-11')] },
    ]);
    expect(await auditActions(t, 'activity-review.sign-off')).toHaveLength(1);
  });
});
