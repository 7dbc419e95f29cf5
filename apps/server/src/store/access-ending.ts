import { sql, type RawBuilder } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { containsPattern } from './like';

// Reads of `role_grants` by end date for the admin's Access ending report (GOVERNANCE.md §3.2) and
// the grants a new contract end would cut. Read-only: grants are changed by store/grants.ts.

export type EndingSortKey = 'endsOn' | 'organization' | 'vendor' | 'sponsor';

export interface EndingWindow {
  /** Grants ending after this instant (now) ... */
  after: Date;
  /** ... and at or before this one (the window's last second). */
  until: Date;
  organizationId: string | undefined;
  /** Contains (case-insensitive) in the organization, username, name, email or sponsor; '' for all. */
  filter: string;
}

const searchText = sql<string>`lower(o.name || ' ' || a.username || ' ' || a.given_name || ' ' || a.family_name || ' ' || a.email || ' ' || coalesce(s.given_name || ' ' || s.family_name, ''))`;

const sortColumns: Record<EndingSortKey, RawBuilder<unknown>> = {
  endsOn: sql`g.expires_at`,
  organization: sql`lower(o.name)`,
  vendor: sql`lower(a.family_name || ' ' || a.given_name)`,
  sponsor: sql`lower(coalesce(s.family_name || ' ' || s.given_name, ''))`,
};

function ending(db: Db | Tx, window: EndingWindow) {
  let query = db
    .selectFrom('role_grants as g')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .leftJoin('accounts as s', 's.id', 'g.sponsor_id')
    .where('g.expires_at', '>', window.after)
    .where('g.expires_at', '<=', window.until);
  if (window.organizationId) query = query.where('g.organization_id', '=', window.organizationId);
  if (window.filter) query = query.where(sql<boolean>`${searchText} like ${containsPattern(window.filter)}`);
  return query;
}

function withColumns(query: ReturnType<typeof ending>) {
  return query.select((eb) => [
    'o.id as organizationId',
    'o.name as organization',
    'a.username',
    'a.given_name as givenName',
    'a.family_name as familyName',
    'a.email',
    'g.expires_at as expiresAt',
    's.given_name as sponsorGivenName',
    's.family_name as sponsorFamilyName',
    eb
      .exists(
        eb
          .selectFrom('request_items as i')
          .innerJoin('requests as r', 'r.id', 'i.request_id')
          .select('i.id')
          .whereRef('r.beneficiary_id', '=', 'g.account_id')
          .whereRef('i.organization_id', '=', 'g.organization_id')
          .where('i.operation', '=', 'Extend')
          .where('i.status', '=', 'pending'),
      )
      .as('extensionPending'),
  ]);
}

/** How many grants end in the window (the report's total) and match its filter. */
export async function countEnding(db: Db | Tx, window: EndingWindow) {
  const count = (w: EndingWindow) =>
    ending(db, w)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
  const total = (await count({ ...window, filter: '' })).n;
  const matching = window.filter ? (await count(window)).n : total;
  return { total, matching };
}

/** One page (or, without a limit, all) of the grants ending in the window, sorted by the column. */
export async function listEnding(
  db: Db | Tx,
  window: EndingWindow,
  page: { sort: EndingSortKey; direction: 'asc' | 'desc'; offset: number; limit: number | undefined },
) {
  let query = withColumns(ending(db, window)).orderBy(sortColumns[page.sort], page.direction);
  if (page.sort !== 'endsOn') query = query.orderBy(sql`g.expires_at`);
  query = query
    .orderBy(sql`lower(a.username)`)
    .orderBy(sql`lower(o.name)`)
    .offset(page.offset);
  if (page.limit !== undefined) query = query.limit(page.limit);
  return query.execute();
}

/** How many current grants of the organization end after `instant` (a new contract end). */
export async function countGrantsEndingAfter(db: Db | Tx, organizationId: string, instant: Date) {
  const row = await db
    .selectFrom('role_grants')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('expires_at', '>', instant)
    .executeTakeFirstOrThrow();
  return row.n;
}
