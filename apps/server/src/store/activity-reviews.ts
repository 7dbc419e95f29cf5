import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';

// The owner of `activity_reviews` (the weekly activity review, GOVERNANCE.md §9.4) and of the
// audit-trail reads its digest is made of: counts and lists of one week's events by action.

/** A week: its first instant and the next week's (exclusive). */
export interface ActivityWindow {
  from: Date;
  until: Date;
}

/** Which events a digest section holds: these actions with this outcome, maybe one detail's values. */
export interface ActivityFilter {
  actions: readonly string[];
  outcome: 'success' | 'failure';
  detail?: { key: string; values: readonly string[] };
}

function selectActivity(db: Db | Tx, w: ActivityWindow, f: ActivityFilter) {
  let query = db
    .selectFrom('audit_events as e')
    .where('e.occurred_at', '>=', w.from)
    .where('e.occurred_at', '<', w.until)
    .where('e.action', 'in', [...f.actions])
    .where('e.outcome', '=', f.outcome);
  if (f.detail) {
    const { key, values } = f.detail;
    query = query.where(sql<string>`e.details ->> ${key}`, 'in', [...values]);
  }
  return query;
}

/** How many of the week's events match, per action. */
export async function countActivity(db: Db | Tx, w: ActivityWindow, f: ActivityFilter) {
  const rows = await selectActivity(db, w, f)
    .select(['e.action', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('e.action')
    .execute();
  return rows.map((r) => ({ action: r.action, n: Number(r.n) }));
}

/** The first `limit` of the week's matching events, in the order they happened. */
export async function listActivity(db: Db | Tx, w: ActivityWindow, f: ActivityFilter, limit: number) {
  return selectActivity(db, w, f)
    .leftJoin('organizations as o', 'o.id', 'e.organization_id')
    .select([
      'e.id',
      'e.occurred_at',
      'e.action',
      'e.actor_username',
      'e.target_username',
      'e.details',
      'o.name as organization',
    ])
    .orderBy('e.occurred_at')
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

/**
 * Failed sign-ins (password or passcode) and lockouts in the week per vendor account, most first;
 * `unknown` counts the failures for usernames that match no account.
 */
export async function failedSignInsPerVendor(db: Db | Tx, w: ActivityWindow, limit: number) {
  const failures = ['signin.password', 'signin.mfa'];
  const perVendor = await db
    .selectFrom('audit_events as e')
    .innerJoin('accounts as a', 'a.id', 'e.target_id')
    .where('e.occurred_at', '>=', w.from)
    .where('e.occurred_at', '<', w.until)
    .where('e.outcome', '=', 'failure')
    .where('e.action', 'in', [...failures, 'signin.lockout'])
    .where('a.type', '=', 'vendor')
    .select((eb) => [
      'a.username',
      eb.fn.sum<number>(sql`case when e.action = 'signin.lockout' then 0 else 1 end`).as('failures'),
      eb.fn.sum<number>(sql`case when e.action = 'signin.lockout' then 1 else 0 end`).as('lockouts'),
    ])
    .groupBy('a.username')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('a.username')
    .limit(limit)
    .execute();
  const unknown = await db
    .selectFrom('audit_events as e')
    .where('e.occurred_at', '>=', w.from)
    .where('e.occurred_at', '<', w.until)
    .where('e.outcome', '=', 'failure')
    .where('e.action', 'in', failures)
    .where('e.target_id', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return {
    perVendor: perVendor.map((r) => ({
      username: r.username,
      failures: Number(r.failures),
      lockouts: Number(r.lockouts),
    })),
    unknown: Number(unknown.n),
  };
}

/**
 * Reporters with `atLeast` departure reports dismissed in the week. The reporter is the dismissal's
 * `reporter` detail, else the actor of the `departure.report` event with the same `reportId`.
 */
export async function repeatedDismissals(db: Db | Tx, w: ActivityWindow, atLeast: number) {
  const rows = await sql<{ reporter: string; dismissed: number }>`
    select reporter, count(*) as dismissed
    from (
      select coalesce(nullif(d.details ->> 'reporter', ''), (
        select r.actor_username from audit_events r
        where r.action = 'departure.report' and r.outcome = 'success'
          and r.details ->> 'reportId' = d.details ->> 'reportId'
        order by r.occurred_at limit 1
      )) as reporter
      from audit_events d
      where d.action = 'departure.dismiss' and d.outcome = 'success'
        and d.occurred_at >= ${w.from} and d.occurred_at < ${w.until}
    ) dismissals
    where reporter is not null and reporter <> ''
    group by reporter
    having count(*) >= ${atLeast}
    order by count(*) desc, reporter`.execute(db);
  return rows.rows.map((r) => ({ reporter: r.reporter, dismissed: Number(r.dismissed) }));
}

export interface NewActivityReview {
  periodStart: string;
  periodEnd: string;
  window: ActivityWindow;
  generatedAt: Date;
  digest: Record<string, unknown>;
  total: number;
}

/** Stores a week's digest once: false when that week has one already (another sweep's). */
export async function insertActivityReview(tx: Tx, review: NewActivityReview): Promise<boolean> {
  const inserted = await tx
    .insertInto('activity_reviews')
    .values({
      period_start: review.periodStart,
      period_end: review.periodEnd,
      starts_at: review.window.from,
      ends_at: review.window.until,
      generated_at: review.generatedAt,
      digest: JSON.stringify(review.digest),
      total: review.total,
    })
    .onConflict((oc) => oc.column('period_start').doNothing())
    .returning('period_start')
    .execute();
  return inserted.length > 0;
}

/** The Monday of the newest week with a digest, or null before the first. */
export async function latestActivityWeek(db: Db | Tx): Promise<string | null> {
  const row = await db
    .selectFrom('activity_reviews')
    .select('period_start')
    .orderBy('period_start', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.period_start ?? null;
}

function selectReviews(db: Db | Tx) {
  return db
    .selectFrom('activity_reviews as r')
    .leftJoin('accounts as a', 'a.id', 'r.reviewed_by')
    .select([
      'r.period_start',
      'r.period_end',
      'r.generated_at',
      'r.total',
      'r.reviewed_at',
      'r.note',
      'a.username as reviewer_username',
      'a.given_name as reviewer_given_name',
      'a.family_name as reviewer_family_name',
    ]);
}

/** The digests, newest first, without their snapshots. */
export async function listActivityReviews(db: Db | Tx, limit: number) {
  return selectReviews(db).orderBy('r.period_start', 'desc').limit(limit).execute();
}

export type ActivityReviewRow = Awaited<ReturnType<typeof listActivityReviews>>[number];

/** One week's digest with its snapshot. */
export async function findActivityReview(db: Db | Tx, periodStart: string) {
  return selectReviews(db).select('r.digest').where('r.period_start', '=', periodStart).executeTakeFirst();
}

/**
 * Records the sign-off when the week is not reviewed yet: one conditional statement, so of two
 * admins signing off at once exactly one succeeds. False when the week is unknown or reviewed.
 */
export async function signOffActivityReview(
  tx: Tx,
  periodStart: string,
  by: { accountId: string; at: Date; note: string },
): Promise<boolean> {
  const result = await tx
    .updateTable('activity_reviews')
    .set({ reviewed_by: by.accountId, reviewed_at: by.at, note: by.note })
    .where('period_start', '=', periodStart)
    .where('reviewed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Weeks still not reviewed whose digest was generated by `cutoff` and announced (mail A1 recorded
 * under `noticeKind`), after `after` by Monday: the reminders due.
 */
export async function unreviewedAnnounced(
  db: Db | Tx,
  noticeKind: string,
  cutoff: Date,
  after: string | null,
  limit: number,
) {
  let query = db
    .selectFrom('activity_reviews as r')
    .select(['r.period_start', 'r.period_end', 'r.generated_at'])
    .where('r.reviewed_at', 'is', null)
    .where('r.generated_at', '<=', cutoff)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('governance_notices as n')
          .select('n.kind')
          .where('n.kind', '=', noticeKind)
          .where('n.subject_id', '=', sql<string>`r.period_start::text`)
          .where('n.milestone', '=', 'ready')
          .where('n.skipped', '=', false),
      ),
    );
  if (after) query = query.where('r.period_start', '>', after);
  return query.orderBy('r.period_start').limit(limit).execute();
}

/** The week's row locked (a reminder re-reads it before mailing), or undefined. */
export async function lockActivityReview(tx: Tx, periodStart: string) {
  return tx
    .selectFrom('activity_reviews')
    .select(['period_start', 'period_end', 'reviewed_at'])
    .where('period_start', '=', periodStart)
    .forUpdate()
    .executeTakeFirst();
}
