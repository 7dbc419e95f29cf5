import { sql, type RawBuilder } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { containsPattern } from './like';

// Reads for Administration → Reports (GOVERNANCE.md §9.2). Read-only: each report is a page
// (offset and limit, with its counts) or, for a CSV, batches read after a cursor (never every row
// at once).

const signInMethod = (account: string) => sql<string>`case
  when exists (select 1 from webauthn_credentials w where w.account_id = ${sql.ref(`${account}.id`)}) then 'Security key'
  when exists (select 1 from mfa_devices m where m.account_id = ${sql.ref(`${account}.id`)} and m.confirmed_at is not null)
    or exists (select 1 from authenticators t where t.account_id = ${sql.ref(`${account}.id`)}) then 'Authenticator app'
  else 'None' end`;

const fullName = (alias: string) =>
  sql<string>`nullif(trim(${sql.ref(`${alias}.given_name`)} || ' ' || ${sql.ref(`${alias}.family_name`)}), '')`;

// ---- Vendor Access ----

export type VendorAccessSortKey = 'vendor' | 'username' | 'accessSince' | 'accessEnds' | 'lastSignIn';

export interface VendorAccessScope {
  /** Access that began before `until` and had not ended by `from`. */
  from: Date;
  until: Date;
  organizationId: string | undefined;
  /** Contains, case-insensitive, in the organization, vendor's name, username, email or sponsor. */
  filter: string;
}

export interface VendorAccessDbRow {
  organization: string;
  organization_id: string;
  username: string;
  given_name: string;
  family_name: string;
  email: string;
  access_since: Date | string;
  access_ends: Date | string;
  end_reason: string | null;
  last_confirmed_at: Date | string | null;
  last_sign_in_at: Date | string | null;
  sponsor: string | null;
  approved_by: string | null;
  sign_in_method: 'Security key' | 'Authenticator app' | 'None';
  account_id: string;
  /** Orders rows that tie on every sorted column: 'c' + account and organization, or 'h' + history id. */
  row_key: string;
}

/** Current grants and ended ones (grant history) of vendors that overlap the period. */
function vendorAccessRows(scope: VendorAccessScope) {
  const org = (alias: string) =>
    scope.organizationId ? sql`and ${sql.ref(`${alias}.organization_id`)} = ${scope.organizationId}` : sql``;
  return sql`
    select g.account_id, g.organization_id, g.granted_at as access_since, g.expires_at as access_ends,
           null::text as end_reason, g.sponsor_id, g.granted_by, g.last_confirmed_at,
           'c' || g.account_id::text || '/' || g.organization_id::text as row_key
      from role_grants g
     where g.granted_at < ${scope.until} and g.expires_at > ${scope.from} ${org('g')}
    union all
    select h.account_id, h.organization_id, h.granted_at, h.ended_at, h.end_reason::text, h.sponsor_id,
           h.granted_by, null, 'h' || h.id::text
      from grant_history h
     where h.granted_at < ${scope.until} and h.ended_at > ${scope.from} ${org('h')}`;
}

function vendorAccessFrom(scope: VendorAccessScope) {
  const search = scope.filter
    ? sql`and lower(o.name || ' ' || a.username || ' ' || a.given_name || ' ' || a.family_name || ' ' || a.email
          || ' ' || coalesce(s.given_name || ' ' || s.family_name, '')) like ${containsPattern(scope.filter)}`
    : sql``;
  return sql`from (${vendorAccessRows(scope)}) r
    join accounts a on a.id = r.account_id and a.type = 'vendor'
    join organizations o on o.id = r.organization_id
    left join accounts s on s.id = r.sponsor_id
    left join accounts p on p.id = r.granted_by
    where true ${search}`;
}

const vendorAccessColumns = sql`o.name as organization, o.id as organization_id, a.id as account_id, a.username,
  a.given_name, a.family_name, a.email, r.access_since, r.access_ends, r.end_reason, r.last_confirmed_at,
  a.last_sign_in_at, ${fullName('s')} as sponsor, coalesce(${fullName('p')}, p.username) as approved_by,
  ${signInMethod('a')} as sign_in_method, r.row_key`;

const vendorAccessSort: Record<VendorAccessSortKey, RawBuilder<unknown>> = {
  vendor: sql`lower(a.family_name || ' ' || a.given_name)`,
  username: sql`lower(a.username)`,
  accessSince: sql`r.access_since`,
  accessEnds: sql`r.access_ends`,
  lastSignIn: sql`a.last_sign_in_at`,
};

/** How many rows the period holds (the report's total) and match its filter. */
export async function countVendorAccess(db: Db | Tx, scope: VendorAccessScope) {
  const count = async (s: VendorAccessScope) =>
    (await sql<{ n: number }>`select count(*)::int as n ${vendorAccessFrom(s)}`.execute(db)).rows[0]!.n;
  const total = await count({ ...scope, filter: '' });
  return { total, matching: scope.filter ? await count(scope) : total };
}

/** One page of the report, sorted by the column (then organization, username, row). */
export async function vendorAccessPage(
  db: Db | Tx,
  scope: VendorAccessScope,
  page: { sort: VendorAccessSortKey; direction: 'asc' | 'desc'; offset: number; limit: number },
) {
  const direction = page.direction === 'desc' ? sql`desc` : sql`asc`;
  const { rows } = await sql<VendorAccessDbRow>`select ${vendorAccessColumns} ${vendorAccessFrom(scope)}
    order by ${vendorAccessSort[page.sort]} ${direction} nulls last, lower(o.name), lower(a.username), r.row_key
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows;
}

/** A row of the CSV: with the keys of its order as the database lower-cases them. */
export type VendorAccessCsvRow = VendorAccessDbRow & { organization_key: string; username_key: string };

/**
 * The cursor of the CSV's order (organization, username, row): the last row given, its
 * organization by its place in the walk's list, its username and row by value: an account removed
 * meanwhile moves nothing.
 */
export type VendorAccessCursor = Pick<VendorAccessCsvRow, 'organization_id' | 'username_key' | 'row_key'>;

/**
 * The organizations the CSV walks, in its order (by name), as ids: taken once when the download
 * begins, so an organization renamed while it is read keeps its place (walked again under its new
 * name, or skipped, had the walk gone by name). One of them only when `only` is given.
 */
export async function vendorAccessOrganizations(db: Db | Tx, only: string | undefined): Promise<string[]> {
  const one = only ? sql`where o.id = ${only}` : sql``;
  const { rows } = await sql<{ id: string }>`select o.id from organizations o ${one}
    order by lower(o.name)`.execute(db);
  return rows.map((row) => row.id);
}

/**
 * The next `limit` rows of the CSV after `after`, by organization (`organizations`, in their
 * order), username and row. It walks one organization at a time (its grants and history by their
 * organization indexes), so each batch reads what it gives, not the whole period again: a
 * 50,000-vendor export no longer re-sorts every row for each batch of a thousand.
 */
export async function vendorAccessBatch(
  db: Db | Tx,
  scope: VendorAccessScope,
  organizations: readonly string[],
  after: VendorAccessCursor | null,
  limit: number,
): Promise<VendorAccessCsvRow[]> {
  const rows: VendorAccessCsvRow[] = [];
  // Inside an organization: the rest of the one the cursor is in; then each next one from its start.
  let within = after && { username: after.username_key, rowKey: after.row_key };
  for (let at = after ? organizations.indexOf(after.organization_id) : 0; at < organizations.length; at++) {
    if (at < 0) return rows;
    const wanted = limit - rows.length;
    const past = within
      ? sql`and (lower(a.username), r.row_key) > (${within.username}, ${within.rowKey})`
      : sql``;
    const { rows: found } = await sql<VendorAccessCsvRow>`select ${vendorAccessColumns},
        lower(o.name) as organization_key, lower(a.username) as username_key
      ${vendorAccessFrom({ ...scope, organizationId: organizations[at] })} ${past}
      order by lower(a.username), r.row_key
      limit ${wanted}`.execute(db);
    rows.push(...found);
    within = null;
    // Full: the next batch goes on inside this organization, after the last row given.
    if (rows.length === limit) return rows;
  }
  return rows;
}

// ---- Dormant and Disabled ----

export type DormantSortKey = 'vendor' | 'username' | 'kind' | 'since' | 'lastSignIn' | 'closesOn';

export interface DormantScope {
  kind: 'warned' | 'disabled' | 'neverActivated' | undefined;
  filter: string;
  /** Days after an automated disable (inactive, no access) and after creation before closing. */
  closeAfterDisableDays: number;
  neverActivatedCloseDays: number;
}

export interface DormantDbRow {
  account_id: string;
  username: string;
  given_name: string;
  family_name: string;
  email: string;
  kind: 'warned' | 'disabled' | 'neverActivated';
  reason: string | null;
  since: Date | string;
  last_sign_in_at: Date | string | null;
  closes_at: Date | string | null;
  organizations: string | null;
}

function dormantFrom(scope: DormantScope) {
  const kind = scope.kind ? sql`and d.kind = ${scope.kind}` : sql``;
  const search = scope.filter
    ? sql`and lower(d.username || ' ' || d.given_name || ' ' || d.family_name || ' ' || d.email || ' ' ||
          coalesce(d.organizations, '')) like ${containsPattern(scope.filter)}`
    : sql``;
  const day = sql`interval '1 day'`;
  return sql`from (
    select a.id as account_id, a.username, a.given_name, a.family_name, a.email, a.last_sign_in_at,
      case when a.status = 'disabled' then 'disabled'
           when a.status = 'pendingActivation' then 'neverActivated'
           else 'warned' end as kind,
      case when a.status = 'disabled' then a.disabled_reason::text end as reason,
      case when a.status = 'disabled' then coalesce(a.disabled_at, a.updated_at)
           when a.status = 'pendingActivation' then a.created_at
           else (select max(n.sent_at) from governance_notices n
                  where n.kind = 'account.inactivity' and n.subject_id like a.id::text || '/%'
                    and not n.skipped) end as since,
      case when a.status = 'disabled' and a.disabled_reason in ('inactive', 'noAccess')
             then coalesce(a.disabled_at, a.updated_at) + ${scope.closeAfterDisableDays} * ${day}
           when a.status = 'pendingActivation' then a.created_at + ${scope.neverActivatedCloseDays} * ${day}
      end as closes_at,
      (select string_agg(o.name, ', ' order by o.name) from role_grants g
         join organizations o on o.id = g.organization_id where g.account_id = a.id) as organizations
    from accounts a
    where a.type = 'vendor' and (
      a.status in ('disabled', 'pendingActivation')
      or (a.status = 'active' and exists (
        select 1 from governance_notices n
         where n.kind = 'account.inactivity' and n.subject_id like a.id::text || '/%' and not n.skipped
           and n.sent_at >= greatest(a.last_sign_in_at, a.active_since, a.created_at))))
  ) d where true ${kind} ${search}`;
}

const dormantSort: Record<DormantSortKey, RawBuilder<unknown>> = {
  vendor: sql`lower(d.family_name || ' ' || d.given_name)`,
  username: sql`lower(d.username)`,
  kind: sql`d.kind`,
  since: sql`d.since`,
  lastSignIn: sql`d.last_sign_in_at`,
  closesOn: sql`d.closes_at`,
};

export async function countDormant(db: Db | Tx, scope: DormantScope) {
  const count = async (s: DormantScope) =>
    (await sql<{ n: number }>`select count(*)::int as n ${dormantFrom(s)}`.execute(db)).rows[0]!.n;
  const total = await count({ ...scope, filter: '' });
  return { total, matching: scope.filter ? await count(scope) : total };
}

/** One page (`offset`, `limit`), or the batch after `after` (by username, id) for the CSV. */
export async function dormantRows(
  db: Db | Tx,
  scope: DormantScope,
  page:
    | { sort: DormantSortKey; direction: 'asc' | 'desc'; offset: number; limit: number }
    | { after: { username: string; accountId: string } | null; limit: number },
) {
  if ('after' in page) {
    const past = page.after
      ? sql`and (lower(d.username), d.account_id) > (${page.after.username}, ${page.after.accountId}::uuid)`
      : sql``;
    return (
      await sql<DormantDbRow>`select d.* ${dormantFrom(scope)} ${past}
        order by lower(d.username), d.account_id limit ${page.limit}`.execute(db)
    ).rows;
  }
  const direction = page.direction === 'desc' ? sql`desc` : sql`asc`;
  return (
    await sql<DormantDbRow>`select d.* ${dormantFrom(scope)}
      order by ${dormantSort[page.sort]} ${direction} nulls last, lower(d.username), d.account_id
      limit ${page.limit} offset ${page.offset}`.execute(db)
  ).rows;
}

// ---- Sign-in Strength (paged) ----

export type StrengthSortKey = 'name' | 'share' | 'vendors';

function strengthFrom(now: Date, filter: string) {
  const search = filter ? sql`where lower(s.name) like ${containsPattern(filter)}` : sql``;
  return sql`from (
    select o.id, o.name, o.risk_tier,
           count(distinct a.id)::int as vendors,
           count(distinct a.id) filter (
             where exists (select 1 from webauthn_credentials w where w.account_id = a.id)
           )::int as with_key
      from organizations o
      join role_grants g on g.organization_id = o.id and g.expires_at > ${now}
      join accounts a on a.id = g.account_id and a.type = 'vendor' and a.status = 'active'
     group by o.id, o.name, o.risk_tier) s ${search}`;
}

const strengthSort: Record<StrengthSortKey, RawBuilder<unknown>> = {
  name: sql`lower(s.name)`,
  share: sql`s.with_key::float / greatest(s.vendors, 1)`,
  vendors: sql`s.vendors`,
};

export async function countSignInStrength(db: Db | Tx, now: Date, filter: string) {
  const count = async (f: string) =>
    (await sql<{ n: number }>`select count(*)::int as n ${strengthFrom(now, f)}`.execute(db)).rows[0]!.n;
  const total = await count('');
  return { total, matching: filter ? await count(filter) : total };
}

/** Per organization with active vendors, how many hold a security key or passkey. */
export async function signInStrengthRows(
  db: Db | Tx,
  now: Date,
  o: {
    filter: string;
    sort: StrengthSortKey;
    direction: 'asc' | 'desc';
    offset: number;
    limit: number | null;
  },
) {
  const direction = o.direction === 'desc' ? sql`desc` : sql`asc`;
  const limit = o.limit === null ? sql`` : sql`limit ${o.limit}`;
  const { rows } = await sql<{
    id: string;
    name: string;
    risk_tier: 'standard' | 'high';
    vendors: number;
    with_key: number;
  }>`select s.* ${strengthFrom(now, o.filter)}
      order by ${strengthSort[o.sort]} ${direction}, lower(s.name), s.id ${limit} offset ${o.offset}`.execute(
    db,
  );
  return rows;
}

// ---- Review Evidence: the campaigns ----

export type EvidenceSortKey = 'closedAt' | 'organization' | 'cycle';

function campaignsFrom(filter: string) {
  const search = filter ? sql`and lower(o.name || ' ' || y.name) like ${containsPattern(filter)}` : sql``;
  return sql`from review_campaigns c
    join review_cycles y on y.id = c.cycle_id
    join organizations o on o.id = c.organization_id
    where true ${search}`;
}

export async function countCampaigns(db: Db | Tx, filter: string) {
  const count = async (f: string) =>
    (await sql<{ n: number }>`select count(*)::int as n ${campaignsFrom(f)}`.execute(db)).rows[0]!.n;
  const total = await count('');
  return { total, matching: filter ? await count(filter) : total };
}

const campaignSort: Record<EvidenceSortKey, RawBuilder<unknown>> = {
  closedAt: sql`c.closed_at`,
  organization: sql`lower(o.name)`,
  cycle: sql`lower(y.name)`,
};

export async function campaignRows(
  db: Db | Tx,
  o: { filter: string; sort: EvidenceSortKey; direction: 'asc' | 'desc'; offset: number; limit: number },
) {
  const direction = o.direction === 'desc' ? sql`desc` : sql`asc`;
  const { rows } = await sql<{
    id: string;
    cycle: string;
    organization: string;
    status: string;
    closed_at: Date | string | null;
    items: number;
  }>`select c.id, y.name as cycle, o.name as organization, c.status, c.closed_at,
        (select count(*)::int from review_items i where i.campaign_id = c.id) as items
      ${campaignsFrom(o.filter)}
      order by ${campaignSort[o.sort]} ${direction} nulls last, c.opened_at desc nulls last, c.id
      limit ${o.limit} offset ${o.offset}`.execute(db);
  return rows;
}

/** Every organization's id and name, by name (the reports' organization filter). */
export async function organizationNames(db: Db | Tx) {
  return db.selectFrom('organizations').select(['id', 'name']).orderBy('name').execute();
}
