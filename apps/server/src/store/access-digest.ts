import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';

// The reads behind the BRMs' daily digest (GOVERNANCE.md §2.6, X3): who gets one today, and what
// it lists. A recipient is an active employee who is a primary BRM of the grant's organization or
// the grant's sponsor of record. A grant "ended" at its end date when it expired (the sweep moves
// it a little later) and at its removal otherwise: least(expires_at, ended_at). Vendors disabled for
// inactivity (§6.5 D2) are listed to the same recipients of their grants (accounts_disabled_idx).

/** The digest series in governance_notices: one row per recipient (subject) and local date (milestone). */
export const DIGEST_KIND = 'digest.brm';

export interface DigestWindow {
  /** The digest's local date (YYYY-MM-DD): its milestone. */
  date: string;
  /** The sweep's instant: access ending after it is listed... */
  at: Date;
  /** ...up to here (the end of the 14th local day from `date`). */
  horizon: Date;
  /** Where the "ended" section stops: the start of `date` in the hospital's zone. */
  dayStart: Date;
  /** Where it starts for a recipient with no digest in the last 7 days: the start of yesterday. */
  yesterdayStart: Date;
  /**
   * The starts of the 7 local days before `date` (earliest first): after a gap, the "ended"
   * section runs from the last digest's day (at most a week back), so nothing falls between two.
   */
  days: { date: string; start: Date }[];
}

export interface DigestRecipient {
  id: string;
  username: string;
  email: string;
  given_name: string;
}

/**
 * Recipients (after `after`, by id) who have something to read today and no digest for the day
 * yet: the sweep's batches. Driven from the few grants in the window (role_grants_expires_idx and,
 * organization by organization, grant_history_org_idx), never from the accounts table.
 */
export async function digestRecipients(
  db: Db,
  w: DigestWindow,
  after: { id: string } | null,
  limit: number,
): Promise<DigestRecipient[]> {
  const weekStart = w.days[0]?.start ?? w.yesterdayStart;
  const days = sql.join(w.days.map((d) => sql`(${d.date}::text, ${d.start}::timestamptz)`));
  const { rows } = await sql<DigestRecipient>`
    with days (day, start) as (values ${days}),
    last_digest as (
      select n.subject_id, max(n.milestone) as day
      from governance_notices n
      where n.kind = ${DIGEST_KIND} and n.milestone >= ${w.days[0]?.date ?? w.date} and n.milestone < ${w.date}
      group by n.subject_id),
    items as (
      select g.organization_id, g.sponsor_id, null::timestamptz as ended
      from role_grants g
      where g.expires_at > ${w.at} and g.expires_at <= ${w.horizon}
      union all
      select h.organization_id, h.sponsor_id, least(h.expires_at, h.ended_at)
      from organizations o
      cross join lateral (
        select h.organization_id, h.sponsor_id, h.expires_at, h.ended_at
        from grant_history h
        where h.organization_id = o.id and h.ended_at >= ${weekStart}) h
      where least(h.expires_at, h.ended_at) >= ${weekStart} and least(h.expires_at, h.ended_at) < ${w.dayStart}
      union all
      select g.organization_id, g.sponsor_id, a.disabled_at
      from accounts a join role_grants g on g.account_id = a.id
      where a.status = 'disabled' and a.disabled_reason = 'inactive'
        and a.disabled_at >= ${weekStart} and a.disabled_at < ${w.dayStart}
      union all
      select g.organization_id, null::uuid, null::timestamptz
      from accounts a join role_grants g on g.account_id = a.id
      where a.type = 'vendor' and a.status = 'active' and a.aup_overdue_since is not null),
    pairs as (
      select b.account_id as recipient_id, i.ended
      from items i join brm_assignments b on b.organization_id = i.organization_id and b.kind = 'primary'
      union all
      select i.sponsor_id, i.ended from items i where i.sponsor_id is not null),
    recipients as (
      select distinct p.recipient_id
      from pairs p
      left join last_digest l on l.subject_id = p.recipient_id::text
      left join days d on d.day = l.day
      where p.ended is null or p.ended >= coalesce(d.start, ${w.yesterdayStart}))
    select a.id, a.username, a.email, a.given_name
    from recipients r
    join accounts a on a.id = r.recipient_id
    where a.status = 'active' and a.type = 'employee'
      and a.id > ${after?.id ?? '00000000-0000-0000-0000-000000000000'}
      and not exists (
        select 1 from governance_notices n
        where n.kind = ${DIGEST_KIND} and n.subject_id = a.id::text and n.milestone = ${w.date})
    order by a.id
    limit ${limit}`.execute(db);
  return rows;
}

/** Where a recipient's "ended" section starts: its last digest's day in the week, else yesterday. */
export async function digestSince(tx: Tx, recipientId: string, w: DigestWindow): Promise<Date> {
  const last = await tx
    .selectFrom('governance_notices')
    .select((eb) => eb.fn.max('milestone').as('day'))
    .where('kind', '=', DIGEST_KIND)
    .where('subject_id', '=', recipientId)
    .where('milestone', '>=', w.days[0]?.date ?? w.date)
    .where('milestone', '<', w.date)
    .executeTakeFirst();
  return w.days.find((d) => d.date === last?.day)?.start ?? w.yesterdayStart;
}

export interface DigestLine {
  vendor: string;
  username: string;
  organization: string;
  /** The grant's end (ending) or when it ended (ended). */
  at: Date;
}

/** Grants of the recipient's organizations (or sponsored by it) ending within the window. */
export async function digestEnding(tx: Tx, recipientId: string, w: DigestWindow): Promise<DigestLine[]> {
  const { rows } = await sql<DigestLine>`
    select a.given_name || ' ' || a.family_name as vendor, a.username, o.name as organization, g.expires_at as at
    from role_grants g
    join accounts a on a.id = g.account_id
    join organizations o on o.id = g.organization_id
    where g.expires_at > ${w.at} and g.expires_at <= ${w.horizon}
      and (g.sponsor_id = ${recipientId} or exists (
        select 1 from brm_assignments b
        where b.organization_id = g.organization_id and b.account_id = ${recipientId} and b.kind = 'primary'))
    order by g.expires_at, o.name, a.username`.execute(tx);
  return rows;
}

/**
 * Grants of the recipient's organizations (or sponsored by it) that ended from `since` to the
 * start of the digest's day, with why, and when the account was disabled for having no access left
 * (null unless it was, when or after this grant ended, and still is).
 */
export async function digestEnded(
  tx: Tx,
  recipientId: string,
  w: DigestWindow,
  since: Date,
): Promise<(DigestLine & { end_reason: string; disabled_at: Date | null })[]> {
  const { rows } = await sql<DigestLine & { end_reason: string; disabled_at: Date | null }>`
    select a.given_name || ' ' || a.family_name as vendor, a.username, o.name as organization,
           least(h.expires_at, h.ended_at) as at, h.end_reason,
           case when a.status = 'disabled' and a.disabled_reason = 'noAccess' and a.disabled_at >= h.ended_at
             then a.disabled_at end as disabled_at
    from grant_history h
    join accounts a on a.id = h.account_id
    join organizations o on o.id = h.organization_id
    where h.ended_at >= ${since}
      and least(h.expires_at, h.ended_at) >= ${since} and least(h.expires_at, h.ended_at) < ${w.dayStart}
      and (h.sponsor_id = ${recipientId} or exists (
        select 1 from brm_assignments b
        where b.organization_id = h.organization_id and b.account_id = ${recipientId} and b.kind = 'primary'))
    order by least(h.expires_at, h.ended_at), o.name, a.username`.execute(tx);
  return rows;
}

/**
 * Vendors of the recipient's organizations (or sponsored by it) disabled for inactivity from
 * `since` to the start of the digest's day, and still disabled: one line per account.
 */
export async function digestInactive(
  tx: Tx,
  recipientId: string,
  w: DigestWindow,
  since: Date,
): Promise<{ vendor: string; username: string; disabled_at: Date; last_sign_in_at: Date | null }[]> {
  const { rows } = await sql<{
    vendor: string;
    username: string;
    disabled_at: Date;
    last_sign_in_at: Date | null;
  }>`
    select a.given_name || ' ' || a.family_name as vendor, a.username, a.disabled_at, a.last_sign_in_at
    from accounts a
    where a.status = 'disabled' and a.disabled_reason = 'inactive'
      and a.disabled_at >= ${since} and a.disabled_at < ${w.dayStart}
      and exists (
        select 1 from role_grants g
        where g.account_id = a.id and (g.sponsor_id = ${recipientId} or exists (
          select 1 from brm_assignments b
          where b.organization_id = g.organization_id and b.account_id = ${recipientId} and b.kind = 'primary')))
    order by a.disabled_at, a.username`.execute(tx);
  return rows;
}

/**
 * U3 (GOVERNANCE.md §8.3): per organization the recipient is a primary BRM of, how many of its
 * vendors are blocked for not accepting the Acceptable Use Policy.
 */
export async function digestAupOverdue(tx: Tx, recipientId: string) {
  return tx
    .selectFrom('brm_assignments as b')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .innerJoin('role_grants as g', 'g.organization_id', 'b.organization_id')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .select(['o.name as organization', (eb) => eb.fn.countAll<number>().as('vendors')])
    .where('b.account_id', '=', recipientId)
    .where('b.kind', '=', 'primary')
    .where('a.type', '=', 'vendor')
    .where('a.status', '=', 'active')
    .where('a.aup_overdue_since', 'is not', null)
    .groupBy('o.name')
    .orderBy('o.name')
    .execute();
}
