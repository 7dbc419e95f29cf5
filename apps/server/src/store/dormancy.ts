import { sql, type RawBuilder } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { containsPattern } from './like';
import { usernameIn } from './username-match';

// Dormant accounts and sponsors of record (GOVERNANCE.md §6): the statements of the inactivity
// steps, the sponsors a vendor is shown, the sponsorship report.

/** When an account's inactivity clock started: the latest of last sign-in, re-enabling, creation. */
export const clockStartSql = sql<Date>`greatest(last_sign_in_at, active_since, created_at)`;

/** Active vendor accounts whose inactivity clock started at `startedBy` or earlier, by id. */
export async function idleVendors(db: Db, startedBy: Date, after: { id: string } | null, limit: number) {
  let query = db
    .selectFrom('accounts')
    .select('id')
    .where('type', '=', 'vendor')
    .where('status', '=', 'active')
    .where(clockStartSql, '<=', startedBy);
  if (after) query = query.where('id', '>', after.id);
  return query.orderBy('id').limit(limit).execute();
}

/**
 * Of `ids`, the vendor accounts still active, locked for the inactivity decision (in id order, so
 * two sweeps over the same batch wait for each other instead of deadlocking), with their clock
 * start and tier: one account-level clock (§6.8), the strictest tier among the organizations the
 * account has access to. One statement for a whole batch.
 */
export async function idleVendorsForUpdate(tx: Tx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const rows = await tx
    .selectFrom('accounts')
    .select((eb) => [
      'id',
      'username',
      'email',
      'given_name',
      clockStartSql.as('clock_start'),
      eb
        .exists(
          eb
            .selectFrom('role_grants as g')
            .innerJoin('organizations as o', 'o.id', 'g.organization_id')
            .select('g.account_id')
            .whereRef('g.account_id', '=', 'accounts.id')
            .where('o.risk_tier', '=', 'high'),
        )
        .as('high'),
    ])
    .where('id', 'in', ids)
    .where('type', '=', 'vendor')
    .where('status', '=', 'active')
    .orderBy('id')
    .forUpdate('accounts')
    .execute();
  return rows.map(({ high, ...row }) => ({
    ...row,
    clock_start: new Date(row.clock_start),
    tier: high ? ('high' as const) : ('standard' as const),
  }));
}

/** Disables for inactivity those of the accounts still active (one statement); the ids it disabled. */
export async function disableInactive(tx: Tx, ids: readonly string[], at: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .updateTable('accounts')
    .set({ status: 'disabled', disabled_reason: 'inactive', disabled_at: at, updated_at: at })
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Vendor accounts to close: disabled for inactivity at `disabledBy` or earlier, or still waiting
 * for activation since `createdBy` or earlier.
 */
export async function dormantToClose(
  db: Db,
  o: { disabledBy: Date; createdBy: Date },
  after: { id: string } | null,
  limit: number,
) {
  let query = db
    .selectFrom('accounts')
    .select(['id'])
    .where('type', '=', 'vendor')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', '=', 'disabled'),
          eb('disabled_reason', '=', 'inactive'),
          eb('disabled_at', '<=', o.disabledBy),
        ]),
        eb.and([eb('status', '=', 'pendingActivation'), eb('created_at', '<=', o.createdBy)]),
      ]),
    );
  if (after) query = query.where('id', '>', after.id);
  return query.orderBy('id').limit(limit).execute();
}

/** Closes one account found by dormantToClose if it still qualifies; what it was, or undefined. */
export async function closeDormant(tx: Tx, id: string, o: { disabledBy: Date; createdBy: Date; at: Date }) {
  return tx
    .updateTable('accounts')
    .set({ status: 'terminated', updated_at: o.at })
    .where('id', '=', id)
    .where('type', '=', 'vendor')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', '=', 'disabled'),
          eb('disabled_reason', '=', 'inactive'),
          eb('disabled_at', '<=', o.disabledBy),
        ]),
        eb.and([eb('status', '=', 'pendingActivation'), eb('created_at', '<=', o.createdBy)]),
      ]),
    )
    .returning(['id', 'username', 'email', 'given_name', 'disabled_reason'])
    .executeTakeFirst();
}

/** Restarts the inactivity clock (an "Enable User"). */
export async function restartInactivityClock(tx: Tx, id: string, at: Date): Promise<void> {
  await tx.updateTable('accounts').set({ active_since: at }).where('id', '=', id).execute();
}

/** The sponsors of record of an account's current grants, by organization name. */
export async function sponsorsOf(db: Db | Tx, accountId: string) {
  return sponsorsOfAccounts(db, [accountId]);
}

/** The sponsors of record of the accounts' current grants, by organization name (one statement). */
export async function sponsorsOfAccounts(db: Db | Tx, accountIds: readonly string[]) {
  if (accountIds.length === 0) return [];
  return db
    .selectFrom('role_grants as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .leftJoin('accounts as s', 's.id', 'g.sponsor_id')
    .select([
      'g.account_id',
      'o.id as organization_id',
      'o.name as organization',
      's.id as sponsor_id',
      's.given_name',
      's.family_name',
      's.email',
    ])
    .where('g.account_id', 'in', accountIds)
    .orderBy('o.name')
    .execute();
}

export type SponsorshipSortKey = 'organization' | 'vendor' | 'expiresAt';

/**
 * The sponsorship report (§6.2): current grants of active or disabled vendors with no sponsor,
 * or with a sponsor who is no longer an active BRM of the organization; `filter` is contained
 * (case-insensitive) in the organization, the vendor's name or username, or the former sponsor.
 */
function withoutSponsor(db: Db | Tx, filter: string) {
  let query = db
    .selectFrom('role_grants as g')
    .innerJoin('accounts as v', 'v.id', 'g.account_id')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .leftJoin('accounts as s', 's.id', 'g.sponsor_id')
    .where('v.status', 'in', ['active', 'disabled'])
    .where((eb) =>
      eb.or([
        eb('g.sponsor_id', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('brm_assignments as b')
              .innerJoin('accounts as a', 'a.id', 'b.account_id')
              .select('b.account_id')
              .whereRef('b.account_id', '=', 'g.sponsor_id')
              .whereRef('b.organization_id', '=', 'g.organization_id')
              .where('a.status', '=', 'active')
              .where('a.is_employee_brm', '=', true),
          ),
        ),
      ]),
    );
  if (filter)
    query = query.where(
      sql<boolean>`lower(o.name || ' ' || v.username || ' ' || v.given_name || ' ' || v.family_name || ' ' || coalesce(s.username, '')) like ${containsPattern(filter)}`,
    );
  return query;
}

/** How many grants lack a current sponsor (the total) and match the filter. */
export async function countGrantsWithoutSponsor(db: Db | Tx, filter: string) {
  const count = async (f: string) =>
    (
      await withoutSponsor(db, f)
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const total = await count('');
  return { total, matching: filter ? await count(filter) : total };
}

const sponsorshipSort: Record<SponsorshipSortKey, RawBuilder<unknown>> = {
  organization: sql`lower(o.name)`,
  vendor: sql`lower(v.family_name || ' ' || v.given_name)`,
  expiresAt: sql`g.expires_at`,
};

/** One page (or a CSV batch) of the grants without a current sponsor. */
export async function grantsWithoutSponsor(
  db: Db | Tx,
  page: {
    filter: string;
    sort: SponsorshipSortKey;
    direction: 'asc' | 'desc';
    offset: number;
    limit: number;
  },
) {
  return withoutSponsor(db, page.filter)
    .select([
      'g.account_id',
      'g.organization_id',
      'v.username',
      'v.given_name',
      'v.family_name',
      'o.name as organization',
      'g.expires_at',
      's.username as sponsor_username',
    ])
    .orderBy(sponsorshipSort[page.sort], page.direction)
    .orderBy(sql`lower(o.name)`)
    .orderBy(sql`lower(v.username)`)
    .orderBy('g.account_id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** Sets the sponsor of the named grants; the grants changed with their previous sponsor. */
export async function assignSponsor(
  tx: Tx,
  grants: readonly { accountId: string; organizationId: string }[],
  sponsorId: string | null,
) {
  const changed: { account_id: string; organization_id: string; before: string | null }[] = [];
  for (const g of grants) {
    const before = await tx
      .selectFrom('role_grants')
      .select('sponsor_id')
      .where('account_id', '=', g.accountId)
      .where('organization_id', '=', g.organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!before || before.sponsor_id === sponsorId) continue;
    await tx
      .updateTable('role_grants')
      .set({ sponsor_id: sponsorId })
      .where('account_id', '=', g.accountId)
      .where('organization_id', '=', g.organizationId)
      .execute();
    changed.push({ account_id: g.accountId, organization_id: g.organizationId, before: before.sponsor_id });
  }
  return changed;
}

/** The inactivity clock start of active vendor accounts, by username, and whether one holds high-tier access. */
export async function inactivityClocks(db: Db | Tx, usernames: readonly string[]) {
  if (usernames.length === 0) return [];
  return db
    .selectFrom('accounts as a')
    .select([
      'a.username',
      sql<Date>`greatest(a.last_sign_in_at, a.active_since, a.created_at)`.as('clock_start'),
      sql<boolean>`exists (select 1 from role_grants g join organizations o on o.id = g.organization_id
        where g.account_id = a.id and o.risk_tier = 'high')`.as('high'),
    ])
    .where(usernameIn('a.username', usernames))
    .where('a.type', '=', 'vendor')
    .where('a.status', '=', 'active')
    .execute();
}
