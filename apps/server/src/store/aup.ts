import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { containsPattern } from './like';

// The owner of `aup_versions`, `aup_acceptances` and `accounts.aup_overdue_since` (GOVERNANCE.md
// §8): published versions, acceptances, and the facts from which a vendor's standing is computed
// (identity/governance/aup.ts decides; nothing here knows the rules).

export interface AupVersionRow {
  id: string;
  version: number;
  title: string;
  body_md: string;
  sha256: string;
  effective_on: string;
  published_at: Date;
  published_by_username: string | null;
}

/** Every version, oldest first (a handful: one or two a year). */
export async function listVersions(db: Db | Tx): Promise<AupVersionRow[]> {
  const rows = await db
    .selectFrom('aup_versions as v')
    .leftJoin('accounts as p', 'p.id', 'v.published_by')
    .select([
      'v.id',
      'v.version',
      'v.title',
      'v.body_md',
      'v.sha256',
      'v.effective_on',
      'v.published_at',
      'p.username as published_by_username',
    ])
    .orderBy('v.version')
    .execute();
  return rows.map((r) => ({ ...r, published_at: new Date(r.published_at) }));
}

/**
 * Inserts the next version (one more than the highest). Two publishing at once: the unique
 * version number refuses the second insert, which the caller retries with the number after.
 */
export async function insertNextVersion(
  tx: Tx,
  v: { title: string; bodyMd: string; sha256: string; effectiveOn: string; at: Date; by: string },
) {
  return tx
    .insertInto('aup_versions')
    .values({
      version: sql<number>`(select coalesce(max(version), 0) + 1 from aup_versions)`,
      title: v.title,
      body_md: v.bodyMd,
      sha256: v.sha256,
      effective_on: v.effectiveOn,
      published_at: v.at,
      published_by: v.by,
    })
    .returning(['id', 'version'])
    .executeTakeFirstOrThrow();
}

/** The id of a version by its number. */
export async function versionId(db: Db | Tx, version: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('aup_versions')
    .select('id')
    .where('version', '=', version)
    .executeTakeFirst();
  return row?.id;
}

/** Records an acceptance and lifts the account's block, in the caller's transaction. */
export async function recordAcceptance(
  tx: Tx,
  a: { accountId: string; versionId: string; at: Date; clientAddress: string | null },
): Promise<void> {
  await tx
    .insertInto('aup_acceptances')
    .values({
      account_id: a.accountId,
      version_id: a.versionId,
      accepted_at: a.at,
      client_address: a.clientAddress,
    })
    .execute();
  await tx
    .updateTable('accounts')
    .set({ aup_overdue_since: null })
    .where('id', '=', a.accountId)
    .where('aup_overdue_since', 'is not', null)
    .execute();
}

/**
 * Per account of `accountIds`, the newest version it accepted and when (one query for the set, for
 * the reports' rows); accounts with no acceptance are absent.
 */
export async function newestAcceptances(
  db: Db | Tx,
  accountIds: readonly string[],
): Promise<Map<string, { version: number; acceptedAt: Date }>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('aup_acceptances as x')
    .innerJoin('aup_versions as v', 'v.id', 'x.version_id')
    .distinctOn('x.account_id')
    .select(['x.account_id', 'v.version', 'x.accepted_at'])
    .where('x.account_id', 'in', [...new Set(accountIds)])
    .orderBy('x.account_id')
    .orderBy('v.version', 'desc')
    .orderBy('x.accepted_at', 'desc')
    .execute();
  return new Map(
    rows.map((r) => [r.account_id, { version: r.version, acceptedAt: new Date(r.accepted_at) }]),
  );
}

/** Locks the account row (acceptances of one account, and its block, change one at a time). */
export async function lockAccount(tx: Tx, accountId: string): Promise<void> {
  await tx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

/** What a vendor's standing is computed from. */
export interface AupFacts {
  id: string;
  username: string;
  given_name: string;
  family_name: string;
  email: string;
  created_at: Date;
  aup_overdue_since: Date | null;
  /** 'high' when any organization the vendor holds a grant in is high tier. */
  tier: 'standard' | 'high';
  /** The organizations of the vendor's grants, by name, joined with "; ". */
  organizations: string;
  accepted_version: number | null;
  accepted_at: Date | null;
  client_address: string | null;
}

/** The vendors asked to accept: active vendor accounts holding at least one grant. */
const askedVendors = sql`a.type = 'vendor' and a.status = 'active'
  and exists (select 1 from role_grants g where g.account_id = a.id)`;

const factsSelect = sql`select a.id, a.username, a.given_name, a.family_name, a.email, a.created_at,
    a.aup_overdue_since,
    case when exists (select 1 from role_grants g join organizations o on o.id = g.organization_id
                      where g.account_id = a.id and o.risk_tier = 'high') then 'high' else 'standard' end as tier,
    coalesce((select string_agg(o.name, '; ' order by o.name) from role_grants g
              join organizations o on o.id = g.organization_id where g.account_id = a.id), '') as organizations,
    la.version as accepted_version, la.accepted_at, la.client_address
  from accounts a
  left join lateral (
    select v.version, x.accepted_at, x.client_address from aup_acceptances x
    join aup_versions v on v.id = x.version_id
    where x.account_id = a.id order by x.accepted_at desc, v.version desc limit 1
  ) la on true`;

function facts(rows: AupFacts[]): AupFacts[] {
  return rows.map((r) => ({
    ...r,
    created_at: new Date(r.created_at),
    aup_overdue_since: r.aup_overdue_since ? new Date(r.aup_overdue_since) : null,
    accepted_at: r.accepted_at ? new Date(r.accepted_at) : null,
  }));
}

/** One account's facts (any kind or status: the caller decides whether it is asked). */
export async function factsOf(db: Db | Tx, accountId: string): Promise<AupFacts | undefined> {
  const { rows } = await sql<AupFacts>`${factsSelect} where a.id = ${accountId}`.execute(db);
  return facts(rows)[0];
}

/** Every asked vendor's facts, with an optional contains-filter over name, username, email, organizations. */
export async function askedVendorFacts(db: Db | Tx, filter = ''): Promise<AupFacts[]> {
  const where = filter
    ? sql`${askedVendors} and lower(a.username || ' ' || a.given_name || ' ' || a.family_name || ' ' || a.email
        || ' ' || coalesce((select string_agg(o.name, ' ') from role_grants g join organizations o
        on o.id = g.organization_id where g.account_id = a.id), '')) like ${containsPattern(filter)}`
    : askedVendors;
  const { rows } = await sql<AupFacts>`${factsSelect} where ${where} order by a.id`.execute(db);
  return facts(rows);
}

/**
 * The sweep's candidates, by id after `after`: asked vendors not blocked yet whose last
 * acceptance (or creation, when none is recorded) is at or before `acceptedBy`, or whose accepted
 * version is older than `newest`. A superset of those with something due; the step decides.
 */
export async function sweepCandidates(
  db: Db,
  bounds: { acceptedBy: Date; newest: number },
  after: { id: string } | null,
  limit: number,
): Promise<AupFacts[]> {
  const { rows } = await sql<AupFacts>`${factsSelect}
    where ${askedVendors} and a.aup_overdue_since is null
      and (coalesce(la.accepted_at, a.created_at) <= ${bounds.acceptedBy}
           or coalesce(la.version, 1) < ${bounds.newest})
      ${after ? sql`and a.id > ${after.id}` : sql``}
    order by a.id limit ${limit}`.execute(db);
  return facts(rows);
}

/** Blocks an account whose grace ran out; whether it was not blocked before. */
export async function setOverdue(tx: Tx, accountId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .updateTable('accounts')
    .set({ aup_overdue_since: at })
    .where('id', '=', accountId)
    .where('aup_overdue_since', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Blocked vendors per organization (the BRMs' digest, U3): organization id, name, count. */
export async function overdueByOrganization(db: Db | Tx) {
  return db
    .selectFrom('accounts as a')
    .innerJoin('role_grants as g', 'g.account_id', 'a.id')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .select(['o.id', 'o.name', (eb) => eb.fn.countAll<number>().as('vendors')])
    .where('a.type', '=', 'vendor')
    .where('a.status', '=', 'active')
    .where('a.aup_overdue_since', 'is not', null)
    .groupBy(['o.id', 'o.name'])
    .execute();
}

/** Vendor e-mail addresses asked to accept (U2 at publish), by id after `after`. */
export async function askedVendorEmails(db: Db | Tx, after: string | null, limit: number) {
  const { rows } = await sql<{ id: string; email: string; given_name: string }>`
    select a.id, a.email, a.given_name from accounts a
    where ${askedVendors} ${after ? sql`and a.id > ${after}` : sql``}
    order by a.id limit ${limit}`.execute(db);
  return rows;
}
