import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { ReviewCampaignStatus, ReviewDefaultAction } from '../platform/db-schema';
import { hasKindSql } from './account-kinds';

// Access reviews (GOVERNANCE.md §4): cycles, campaigns (one per organization) and their items.

export async function insertCycle(
  tx: Tx,
  c: {
    name: string;
    defaultAction: ReviewDefaultAction;
    vendorConfirmation: boolean;
    opensAt: Date;
    dueAt: Date;
    createdBy: string | null;
    at: Date;
  },
): Promise<string> {
  const { id } = await tx
    .insertInto('review_cycles')
    .values({
      name: c.name,
      default_action: c.defaultAction,
      vendor_confirmation: c.vendorConfirmation,
      opens_at: c.opensAt,
      due_at: c.dueAt,
      created_by: c.createdBy,
      created_at: c.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertCampaigns(tx: Tx, cycleId: string, organizationIds: readonly string[]) {
  return tx
    .insertInto('review_campaigns')
    .values(
      organizationIds.map((id) => ({ cycle_id: cycleId, organization_id: id, status: 'scheduled' as const })),
    )
    .returning(['id', 'organization_id'])
    .execute();
}

/** The organizations of `ids` (all active ones for null) with an unfinished campaign, by name. */
export async function organizationsUnderReview(db: Db | Tx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('review_campaigns as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .select(['o.id', 'o.name'])
    .where('c.organization_id', 'in', ids)
    .where('c.status', 'in', ['scheduled', 'open', 'closing'])
    .orderBy('o.name')
    .execute();
}

/** A campaign with its cycle's settings and its organization. */
const campaignColumns = [
  'c.id',
  'c.cycle_id',
  'c.organization_id',
  'c.status',
  'c.opened_at',
  'c.reminded_day',
  'c.escalated_at',
  'c.closing_at',
  'c.closed_at',
  'c.cancel_reason',
  'c.preview_at_start',
  'c.preview_at_escalation',
  'y.name as cycle',
  'y.default_action',
  'y.vendor_confirmation',
  'y.opens_at',
  'y.due_at',
  'o.name as organization',
  'o.risk_tier',
] as const;

function campaigns(db: Db | Tx) {
  return db
    .selectFrom('review_campaigns as c')
    .innerJoin('review_cycles as y', 'y.id', 'c.cycle_id')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .select(campaignColumns);
}
export type Campaign = Awaited<ReturnType<typeof campaignById>> & {};

export async function campaignById(db: Db | Tx, id: string) {
  return campaigns(db).where('c.id', '=', id).executeTakeFirst();
}

/** Locks the campaign's row (decisions take it shared, the close exclusive) and reads it. */
export async function lockCampaign(tx: Tx, id: string, mode: 'share' | 'update') {
  const locked = tx.selectFrom('review_campaigns').select('id').where('id', '=', id);
  await (mode === 'share' ? locked.forShare() : locked.forUpdate()).execute();
  return campaignById(tx, id);
}

export async function campaignsOfCycle(db: Db | Tx, cycleId: string) {
  return campaigns(db).where('c.cycle_id', '=', cycleId).orderBy('o.name').execute();
}

export async function campaignsIn(db: Db | Tx, statuses: readonly ReviewCampaignStatus[]) {
  return campaigns(db)
    .where('c.status', 'in', [...statuses])
    .orderBy('c.id')
    .execute();
}

export async function allCampaigns(db: Db | Tx) {
  return campaigns(db).orderBy('y.created_at', 'desc').orderBy('o.name').execute();
}

/** Campaigns due to open by `at`, in id order. */
export async function campaignsToOpen(db: Db | Tx, at: Date) {
  return campaigns(db)
    .where('c.status', '=', 'scheduled')
    .where('y.opens_at', '<=', at)
    .orderBy('c.id')
    .execute();
}

/** Open campaigns whose due date has come. */
export async function campaignsDue(db: Db | Tx, at: Date) {
  return campaigns(db).where('c.status', '=', 'open').where('y.due_at', '<=', at).orderBy('c.id').execute();
}

export async function setCampaign(
  tx: Tx,
  id: string,
  from: readonly ReviewCampaignStatus[],
  set: {
    status?: ReviewCampaignStatus;
    opened_at?: Date;
    reminded_day?: number;
    escalated_at?: Date;
    closing_at?: Date;
    closed_at?: Date;
    cancel_reason?: string;
    preview_at_start?: string;
    preview_at_escalation?: string;
  },
): Promise<boolean> {
  const rows = await tx
    .updateTable('review_campaigns')
    .set(set)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** The open snapshot: one item per current grant of the organization. Returns how many. */
export async function snapshotItems(tx: Tx, campaignId: string, organizationId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with added as (
      insert into review_items (campaign_id, account_id, organization_id, granted_at, expires_at)
      select ${campaignId}::uuid, g.account_id, g.organization_id, g.granted_at, g.expires_at
      from role_grants g join accounts a on a.id = g.account_id
      where g.organization_id = ${organizationId}::uuid and a.status <> 'terminated'
      returning 1)
    select count(*)::int as n from added`.execute(tx);
  return Number(rows[0]?.n ?? 0);
}

/**
 * What the outcome of an item depends on: its decision, the vendor's answer, the account's last
 * sign-in, whether its grant is still current, and how many current grants the account has.
 */
export interface OutcomeRow {
  id: string;
  campaign_id: string;
  account_id: string;
  organization_id: string;
  status: string;
  keep_until: Date | null;
  reason: string | null;
  decided_by: string | null;
  vendor_answer: 'yes' | 'no' | null;
  last_sign_in_at: Date | null;
  account_created_at: Date;
  account_status: string;
  grant_current: boolean;
  grant_expires_at: Date | null;
  current_grants: number;
  username: string;
  email: string;
  given_name: string;
  family_name: string;
}

const outcomeSelect = sql`
  i.id, i.campaign_id, i.account_id, i.organization_id, i.status, i.keep_until, i.reason, i.decided_by,
  i.vendor_answer, a.last_sign_in_at, a.created_at as account_created_at, a.status as account_status,
  (g.account_id is not null) as grant_current, g.expires_at as grant_expires_at,
  (select count(*)::int from role_grants x where x.account_id = i.account_id) as current_grants,
  a.username, a.email, a.given_name, a.family_name`;

/** Every unapplied item of the campaigns (for the preview), in id order. */
export async function outcomeRowsOfCampaigns(
  db: Db | Tx,
  campaignIds: readonly string[],
): Promise<OutcomeRow[]> {
  if (campaignIds.length === 0) return [];
  const { rows } = await sql<OutcomeRow>`
    select ${outcomeSelect}
    from review_items i
    join accounts a on a.id = i.account_id
    left join role_grants g on g.account_id = i.account_id and g.organization_id = i.organization_id
    where i.campaign_id in (${sql.join(campaignIds.map((id) => sql`${id}::uuid`))})
      and i.status not in ('applied', 'withdrawn')
    order by i.id`.execute(db);
  return rows;
}

/** The preview of a cycle not started yet: the current grants of the organizations, as pending items. */
export async function outcomeRowsOfGrants(
  db: Db | Tx,
  organizationIds: readonly string[],
): Promise<OutcomeRow[]> {
  if (organizationIds.length === 0) return [];
  const { rows } = await sql<OutcomeRow>`
    select g.account_id || '/' || g.organization_id as id, g.organization_id as campaign_id,
      g.account_id, g.organization_id, 'pending' as status, null::timestamptz as keep_until,
      null as reason, null::uuid as decided_by, null as vendor_answer, a.last_sign_in_at,
      a.created_at as account_created_at, a.status as account_status, true as grant_current,
      g.expires_at as grant_expires_at,
      (select count(*)::int from role_grants x where x.account_id = g.account_id) as current_grants,
      a.username, a.email, a.given_name, a.family_name
    from role_grants g join accounts a on a.id = g.account_id
    where g.organization_id in (${sql.join(organizationIds.map((id) => sql`${id}::uuid`))})
      and a.status <> 'terminated'
    order by g.organization_id, g.account_id`.execute(db);
  return rows;
}

/** The close's batches: unapplied item ids of closing campaigns after `after`, in id order. */
export async function itemsToApply(db: Db | Tx, campaignId: string, after: string | null, limit: number) {
  let q = db
    .selectFrom('review_items')
    .select('id')
    .where('campaign_id', '=', campaignId)
    .where('status', 'not in', ['applied', 'withdrawn']);
  if (after) q = q.where('id', '>', after);
  return q.orderBy('id').limit(limit).execute();
}

/** Locks the items (still unapplied) and reads what their outcome depends on. */
export async function lockOutcomeRows(tx: Tx, ids: readonly string[]): Promise<OutcomeRow[]> {
  if (ids.length === 0) return [];
  const list = sql.join(ids.map((id) => sql`${id}::uuid`));
  await sql`select id from review_items where id in (${list}) order by id for update`.execute(tx);
  const { rows } = await sql<OutcomeRow>`
    select ${outcomeSelect}
    from review_items i
    join accounts a on a.id = i.account_id
    left join role_grants g on g.account_id = i.account_id and g.organization_id = i.organization_id
    where i.id in (${list}) and i.status not in ('applied', 'withdrawn')
    order by i.id`.execute(tx);
  return rows;
}

/** Ends the grants the close removes, moving them to grant_history in one statement. */
export async function endReviewedGrants(
  tx: Tx,
  ends: readonly {
    account_id: string;
    organization_id: string;
    reason: 'revoked' | 'defaultRemoved';
    by: string | null;
  }[],
  at: Date,
) {
  if (ends.length === 0) return [];
  const values = sql.join(
    ends.map(
      (e) => sql`(${e.account_id}::uuid, ${e.organization_id}::uuid, ${e.reason}::text, ${e.by}::uuid)`,
    ),
  );
  const { rows } = await sql<{ account_id: string; organization_id: string }>`
    with v(account_id, organization_id, reason, ended_by) as (values ${values}),
    ended as (
      delete from role_grants g using v
      where g.account_id = v.account_id and g.organization_id = v.organization_id
      returning g.*, v.reason, v.ended_by as by_whom),
    moved as (
      insert into grant_history (account_id, organization_id, granted_at, granted_by, expires_at, ended_at,
                                 end_reason, ended_by, sponsor_id)
      select account_id, organization_id, granted_at, granted_by, expires_at, ${at}::timestamptz, reason, by_whom, sponsor_id
      from ended)
    select account_id, organization_id from ended`.execute(tx);
  return rows;
}

/** Kept grants: confirmed (by the reviewer; by nobody for a default), the end shortened for Keep until. */
export async function confirmGrants(
  tx: Tx,
  keeps: readonly { account_id: string; organization_id: string; until: Date | null; by: string | null }[],
  at: Date,
): Promise<void> {
  if (keeps.length === 0) return;
  const values = sql.join(
    keeps.map(
      (k) => sql`(${k.account_id}::uuid, ${k.organization_id}::uuid, ${k.until}::timestamptz, ${k.by}::uuid)`,
    ),
  );
  await sql`
    with v(account_id, organization_id, until, by_whom) as (values ${values})
    update role_grants g set last_confirmed_at = ${at}::timestamptz, last_confirmed_by = v.by_whom,
      expires_at = case when v.until is not null and v.until < g.expires_at then v.until else g.expires_at end
    from v where g.account_id = v.account_id and g.organization_id = v.organization_id`.execute(tx);
}

export async function markApplied(
  tx: Tx,
  applied: readonly {
    id: string;
    action: 'kept' | 'shortened' | 'removed' | 'withdrawn';
    byDefault: boolean;
    recommendation: string;
  }[],
  at: Date,
): Promise<void> {
  if (applied.length === 0) return;
  const values = sql.join(
    applied.map(
      (a) => sql`(${a.id}::uuid, ${a.action}::text, ${a.byDefault}::boolean, ${a.recommendation}::text)`,
    ),
  );
  await sql`
    with v(id, action, by_default, recommendation) as (values ${values})
    update review_items i set status = case when v.action = 'withdrawn' then 'withdrawn' else 'applied' end,
      applied_action = v.action, by_default = v.by_default, recommendation = v.recommendation,
      applied_at = ${at}::timestamptz
    from v where i.id = v.id`.execute(tx);
}

/** Cancels the pending Extend Access items of the grants removed ("Access removed in review"). */
export async function cancelExtensionsOf(
  tx: Tx,
  grants: readonly { account_id: string; organization_id: string }[],
  at: Date,
): Promise<string[]> {
  if (grants.length === 0) return [];
  const values = sql.join(grants.map((g) => sql`(${g.account_id}::uuid, ${g.organization_id}::uuid)`));
  const { rows } = await sql<{ request_id: string }>`
    with v(account_id, organization_id) as (values ${values})
    update request_items i set status = 'cancelled', decided_by = null, decided_at = ${at}::timestamptz,
      decision_comment = 'Access removed in review'
    from requests r, v
    where r.id = i.request_id and r.beneficiary_id = v.account_id and i.organization_id = v.organization_id
      and i.operation = 'Extend' and i.status = 'pending'
    returning i.request_id`.execute(tx);
  return [...new Set(rows.map((r) => r.request_id))];
}

export async function countUnapplied(db: Db | Tx, campaignId: string): Promise<number> {
  const row = await db
    .selectFrom('review_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campaign_id', '=', campaignId)
    .where('status', 'not in', ['applied', 'withdrawn'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countPending(db: Db | Tx, campaignId: string): Promise<number> {
  const row = await db
    .selectFrom('review_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a closed campaign applied: counts by action and default. */
export async function appliedCounts(db: Db | Tx, campaignId: string) {
  return db
    .selectFrom('review_items')
    .select(['applied_action', 'by_default', (eb) => eb.fn.countAll<number>().as('n')])
    .where('campaign_id', '=', campaignId)
    .groupBy(['applied_action', 'by_default'])
    .execute();
}

/** Withdraws every item (a cancelled campaign). */
export async function withdrawItems(tx: Tx, campaignId: string, at: Date): Promise<void> {
  await tx
    .updateTable('review_items')
    .set({ status: 'withdrawn', applied_action: 'withdrawn', by_default: false, applied_at: at })
    .where('campaign_id', '=', campaignId)
    .where('status', 'not in', ['applied', 'withdrawn'])
    .execute();
}

/**
 * SQL: whether `accountId` (an admin when `isAdmin`) may decide campaign `c`'s items at `at`:
 * a primary BRM of its organization; a backup BRM once escalated; the delegate of a primary BRM
 * (Away and Backup); InfoSec (admins) once escalated, when the organization has no active primary
 * BRM, or when a primary BRM delegated to InfoSec.
 */
/** The organization has no active primary BRM: its review items go straight to InfoSec (§4.8). */
function noPrimaryBrmSql(organizationId: ReturnType<typeof sql.ref>) {
  return sql<boolean>`not exists (select 1 from brm_assignments b join accounts a on a.id = b.account_id
      where b.organization_id = ${organizationId} and b.kind = 'primary' and a.status = 'active'
        and ${hasKindSql('a', 'employeeBrm')})`;
}

/** Active organizations with no active primary BRM (the admin's Reviews page lists them, §4.8). */
export async function organizationsWithoutBrm(db: Db | Tx) {
  return db
    .selectFrom('organizations as o')
    .select(['o.id', 'o.name'])
    .where('o.is_active', '=', true)
    .where(noPrimaryBrmSql(sql.ref('o.id')))
    .orderBy('o.name')
    .execute();
}

export function mayDecideSql(accountId: string, isAdmin: boolean, at: Date) {
  const primaryDelegatedTo = (delegate: ReturnType<typeof sql>) => sql`exists (
      select 1 from brm_delegations d join brm_assignments b on b.account_id = d.delegator_id
      where b.organization_id = c.organization_id and b.kind = 'primary' and ${delegate}
        and d.ended_at is null and d.starts_at <= ${at} and d.ends_at > ${at})`;
  const own = sql`exists (select 1 from brm_assignments b join accounts a on a.id = b.account_id
      where b.account_id = ${accountId} and b.organization_id = c.organization_id
        and (b.kind = 'primary' or c.escalated_at is not null) and ${hasKindSql('a', 'employeeBrm')})`;
  const delegate = primaryDelegatedTo(sql`d.delegate_id = ${accountId}`);
  if (!isAdmin) return sql<boolean>`(${own} or ${delegate})`;
  const noPrimary = noPrimaryBrmSql(sql.ref('c.organization_id'));
  return sql<boolean>`(${own} or ${delegate} or c.escalated_at is not null or ${noPrimary}
    or ${primaryDelegatedTo(sql`d.delegate_id is null`)})`;
}

/** The open campaigns the account may decide (admins: `all` lists every open campaign). */
export async function decidableCampaigns(db: Db | Tx, accountId: string, isAdmin: boolean, at: Date) {
  return campaigns(db)
    .select([
      sql<boolean>`${mayDecideSql(accountId, isAdmin, at)}`.as('may_decide'),
      (eb) =>
        eb
          .selectFrom('review_items as i')
          .select(sql<number>`count(*) filter (where i.status <> 'pending')::int`.as('n'))
          .whereRef('i.campaign_id', '=', 'c.id')
          .as('decided'),
      (eb) =>
        eb
          .selectFrom('review_items as i')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('i.campaign_id', '=', 'c.id')
          .as('total'),
    ])
    .where('c.status', '=', 'open')
    .where(isAdmin ? sql<boolean>`true` : mayDecideSql(accountId, false, at))
    .orderBy('y.due_at')
    .orderBy('o.name')
    .execute();
}

/** A page of a campaign's items for the review page, filtered by name, username or email. */
export async function pageItems(
  db: Db | Tx,
  campaignId: string,
  o: { filter: string; offset: number; limit: number },
) {
  const like = `%${o.filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = o.filter
    ? sql`and (a.username ilike ${like} or a.email ilike ${like}
        or (a.given_name || ' ' || a.family_name) ilike ${like})`
    : sql``;
  const { rows } = await sql<{
    id: string;
    account_id: string;
    given_name: string;
    family_name: string;
    username: string;
    email: string;
    account_status: string;
    disabled_at: Date | null;
    granted_at: Date;
    expires_at: Date;
    grant_expires_at: Date | null;
    last_sign_in_at: Date | null;
    account_created_at: Date;
    has_app: boolean;
    has_key: boolean;
    vendor_answer: 'yes' | 'no' | null;
    vendor_comment: string | null;
    status: string;
    keep_until: Date | null;
    reason: string | null;
    other_access: number;
    total: number;
  }>`
    select i.id, i.account_id, a.given_name, a.family_name, a.username, a.email, a.status as account_status,
      a.disabled_at, i.granted_at, i.expires_at, g.expires_at as grant_expires_at, a.last_sign_in_at,
      a.created_at as account_created_at,
      (exists (select 1 from mfa_devices m where m.account_id = a.id and m.confirmed_at is not null)
        or exists (select 1 from authenticators t where t.account_id = a.id)) as has_app,
      exists (select 1 from webauthn_credentials w where w.account_id = a.id) as has_key,
      i.vendor_answer, i.vendor_comment, i.status, i.keep_until, i.reason,
      (select count(*)::int from role_grants x where x.account_id = i.account_id
        and x.organization_id <> i.organization_id) as other_access,
      count(*) over ()::int as total
    from review_items i
    join accounts a on a.id = i.account_id
    left join role_grants g on g.account_id = i.account_id and g.organization_id = i.organization_id
    where i.campaign_id = ${campaignId}::uuid and i.status <> 'withdrawn' ${where}
    order by a.family_name, a.given_name, a.username
    limit ${o.limit} offset ${o.offset}`.execute(db);
  return rows;
}

/** Undecided items of the open campaigns the account may decide (the Welcome badge). */
export async function countUndecided(db: Db | Tx, accountId: string, isAdmin: boolean, at: Date) {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from review_items i join review_campaigns c on c.id = i.campaign_id
    where c.status = 'open' and i.status = 'pending' and ${mayDecideSql(accountId, isAdmin, at)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The items of `ids` with their campaign (for a decision), locked. */
export async function lockItems(tx: Tx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .selectFrom('review_items as i')
    .innerJoin('accounts as a', 'a.id', 'i.account_id')
    .select([
      'i.id',
      'i.campaign_id',
      'i.account_id',
      'i.organization_id',
      'i.status',
      'i.expires_at',
      'i.keep_until',
      'i.reason',
      'a.username',
    ])
    .where('i.id', 'in', [...ids])
    .orderBy('i.id')
    .forUpdate('i')
    .execute();
}

export async function setDecision(
  tx: Tx,
  id: string,
  d: {
    status: 'kept' | 'keptUntil' | 'removed';
    keepUntil: Date | null;
    reason: string | null;
    by: string;
    at: Date;
  },
): Promise<void> {
  await tx
    .updateTable('review_items')
    .set({
      status: d.status,
      decision: d.status === 'kept' ? 'keep' : d.status === 'keptUntil' ? 'keepUntil' : 'remove',
      keep_until: d.keepUntil,
      reason: d.reason,
      decided_by: d.by,
      decided_at: d.at,
    })
    .where('id', '=', id)
    .execute();
}

/** The vendor's items in open campaigns asking for confirmation. */
export async function confirmationItems(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('review_items as i')
    .innerJoin('review_campaigns as c', 'c.id', 'i.campaign_id')
    .innerJoin('review_cycles as y', 'y.id', 'c.cycle_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .select([
      'i.id',
      'i.vendor_answer',
      'i.vendor_comment',
      'o.name as organization',
      'y.due_at',
      'c.id as campaign_id',
    ])
    .where('i.account_id', '=', accountId)
    .where('c.status', '=', 'open')
    .where('y.vendor_confirmation', '=', true)
    .where('i.status', 'not in', ['applied', 'withdrawn'])
    .orderBy('o.name')
    .execute();
}

export async function setVendorAnswer(
  tx: Tx,
  id: string,
  a: { answer: 'yes' | 'no'; comment: string | null; at: Date },
): Promise<void> {
  await tx
    .updateTable('review_items')
    .set({ vendor_answer: a.answer, vendor_comment: a.comment, answered_at: a.at })
    .where('id', '=', id)
    .execute();
}

/** Vendors of pending items (for R4 reminders and R5 warnings), unanswered only when asked. */
export async function vendorsOfPending(db: Db | Tx, campaignId: string, unansweredOnly: boolean) {
  let q = db
    .selectFrom('review_items as i')
    .innerJoin('accounts as a', 'a.id', 'i.account_id')
    .select(['i.id', 'a.email', 'a.given_name'])
    .where('i.campaign_id', '=', campaignId)
    .where('i.status', '=', 'pending')
    .where('a.status', 'in', ['active', 'pendingActivation']);
  if (unansweredOnly) q = q.where('i.vendor_answer', 'is', null).where('i.vendor_reminded_at', 'is', null);
  return q.orderBy('i.id').execute();
}

export async function markVendorsReminded(tx: Tx, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .updateTable('review_items')
    .set({ vendor_reminded_at: at })
    .where('id', 'in', [...ids])
    .execute();
}

/** Every vendor of the campaign's items (R4 at open). */
export async function vendorsOfCampaign(db: Db | Tx, campaignId: string) {
  return db
    .selectFrom('review_items as i')
    .innerJoin('accounts as a', 'a.id', 'i.account_id')
    .select(['a.email', 'a.given_name'])
    .where('i.campaign_id', '=', campaignId)
    .where('a.status', 'in', ['active', 'pendingActivation'])
    .orderBy('i.id')
    .execute();
}

/** The evidence's rows: every item with who decided it and what was applied. */
export async function evidenceRows(db: Db | Tx, campaignId: string) {
  return db
    .selectFrom('review_items as i')
    .innerJoin('accounts as a', 'a.id', 'i.account_id')
    .leftJoin('accounts as r', 'r.id', 'i.decided_by')
    .select([
      'i.id',
      'a.username',
      'a.email',
      'r.username as reviewer',
      'i.decision',
      'i.keep_until',
      'i.reason',
      'i.decided_at',
      'i.vendor_answer',
      'i.vendor_comment',
      'i.recommendation',
      'i.applied_action',
      'i.by_default',
      'i.applied_at',
    ])
    .where('i.campaign_id', '=', campaignId)
    .orderBy('i.id')
    .execute();
}

/** The audit events of a campaign (review.* naming it), oldest first. */
export async function campaignAuditEvents(db: Db | Tx, campaignId: string) {
  return db
    .selectFrom('audit_events')
    .select(['id', 'action', sql<string | null>`details->>'itemId'`.as('item_id')])
    .where('action', 'like', 'review.%')
    .where(sql<boolean>`details->>'campaignId' = ${campaignId}`)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
}

/** Active organizations, all or those of `ids`, by name (a cycle's scope). */
export async function activeOrganizations(db: Db | Tx, ids: readonly string[] | undefined) {
  let q = db.selectFrom('organizations').select(['id', 'name', 'risk_tier']).where('is_active', '=', true);
  if (ids && ids.length > 0) q = q.where('id', 'in', [...ids]);
  return q.orderBy('name').execute();
}

export async function campaignOfItem(db: Db | Tx, itemId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('review_items')
    .select('campaign_id')
    .where('id', '=', itemId)
    .executeTakeFirst();
  return row?.campaign_id;
}

/** Whether the account may decide the campaign's items now (mayDecideSql). */
export async function mayDecide(
  db: Db | Tx,
  campaignId: string,
  accountId: string,
  isAdmin: boolean,
  at: Date,
) {
  const row = await db
    .selectFrom('review_campaigns as c')
    .select(mayDecideSql(accountId, isAdmin, at).as('ok'))
    .where('c.id', '=', campaignId)
    .executeTakeFirst();
  return row?.ok === true;
}

/** The current end of the item's grant, if it is still current. */
export async function currentGrantEnd(db: Db | Tx, item: { account_id: string; organization_id: string }) {
  return db
    .selectFrom('role_grants')
    .select('expires_at')
    .where('account_id', '=', item.account_id)
    .where('organization_id', '=', item.organization_id)
    .executeTakeFirst();
}

/** Items and decided items per campaign (the admin list's Decided %). */
export async function campaignProgress(db: Db | Tx) {
  return db
    .selectFrom('review_items')
    .select(['campaign_id', (eb) => eb.fn.countAll<number>().as('total')])
    .select((eb) => eb.fn.count<number>('decided_at').as('decided'))
    .groupBy('campaign_id')
    .execute();
}

/**
 * Undecided items of the organization's open campaigns that a BRM holding an assignment of `kind`
 * decides as its own (mayDecideSql: a primary BRM always, a backup BRM once escalated). They
 * route by assignment, so a transfer moves them with it.
 */
export async function countReviewerItems(
  db: Db | Tx,
  organizationId: string,
  kind: 'primary' | 'backup' | undefined,
): Promise<number> {
  if (kind === undefined) return 0;
  const row = await db
    .selectFrom('review_items as i')
    .innerJoin('review_campaigns as c', 'c.id', 'i.campaign_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('c.organization_id', '=', organizationId)
    .where('c.status', '=', 'open')
    .where('i.status', '=', 'pending')
    .$if(kind === 'backup', (q) => q.where('c.escalated_at', 'is not', null))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
