import {
  answeredPage,
  pageRequest,
  type ManagedUser,
  type ManagedUserSortKey,
  type ManagedUsersPage,
} from '@pra/contracts';
import type { Db } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { loadActor, type Actor } from '../../policies/actor';
import * as vendor from '../../policies/vendor';
import type { RawBuilder } from 'kysely';
import type { AppContext } from '../../platform/app-context';
import { listManagedVendors, matchesFilter, pageManagedVendors } from '../../store/accounts';
import {
  countAccountsAtVersion,
  countVendorsOfOrganizationSets,
  MAX_SETS_AT_ONCE,
  vendorScopeVersion,
  type Counted,
} from '../../store/vendor-counts';
import { BusyBatcher } from '../../platform/busy-batcher';

/** Spec section 9: Manage Users' page size, when the query names none. */
export const USERS_PAGE_SIZE = 10;

type VendorRow = Awaited<ReturnType<typeof listManagedVendors>>[number];

function toManagedUser(row: VendorRow, actor: Actor): ManagedUser {
  return {
    username: row.username,
    givenName: row.given_name,
    familyName: row.family_name,
    email: row.email,
    active: row.status === 'active',
    status: row.status as ManagedUser['status'],
    canManage: vendor.can(actor, 'manage', row),
    canResetActivationCode: vendor.can(actor, 'resetActivationCode', row),
    lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
    disabledReason: row.status === 'disabled' ? (row.disabled_reason ?? 'manual') : null,
    disabledAt: row.disabled_at ? new Date(row.disabled_at).toISOString() : null,
  };
}

/** GET /api/brm/users: the vendors the account manages, with its rights on each (vendor policy). */
export async function listManagedUsers(db: Db, account: Account): Promise<ManagedUser[]> {
  const actor = await loadActor(db, account);
  return (await listManagedVendors(db, vendor.scopeOf(actor, 'a'))).map((row) => toManagedUser(row, actor));
}

/**
 * The counts of BRMs' scopes (their organizations' live vendors), one statement at a time: a
 * count asked while none is read is read alone, as `vendor.pinnedScopeOf`'s condition counts it;
 * those asked meanwhile are read together next (countVendorsOfOrganizationSets).
 */
export function organizationSetCounts(db: Db): BusyBatcher<readonly string[], Counted> {
  return new BusyBatcher<readonly string[], Counted>(
    (ids) => countAccountsAtVersion(db, vendor.pinnedOrganizationsScope(ids, 'a')),
    async (sets) => {
      const { version, values } = await countVendorsOfOrganizationSets(
        db,
        sets,
        vendor.liveVendorAccount('a'),
      );
      return values.map((value) => ({ version, value }));
    },
    MAX_SETS_AT_ONCE,
  );
}

/** Where Manage Users' counts are read and kept. */
type CountsContext = Pick<AppContext, 'db' | 'vendorCounts' | 'organizationSetCounts'>;

/**
 * GET /api/brm/users with paging parameters: one page of the same vendors, filtered and sorted by
 * the database, with the exact counts. The counts are kept per scope and filter while no vendor,
 * grant or BRM assignment changes (store/vendor-counts.ts); the asked page is read beside them and
 * read again only when it lies past the last page. `decorate` (what the route adds to each row) runs
 * on the page's rows as soon as they are read, so its reads overlap the counting, not follow it.
 */
export async function pageManagedUsers<T extends ManagedUser = ManagedUser>(
  ctx: CountsContext,
  account: Account,
  query: {
    page?: number;
    size?: number;
    filter?: string;
    sort?: ManagedUserSortKey;
    direction?: 'asc' | 'desc';
  },
  decorate: (users: ManagedUser[]) => Promise<T[]> = async (users) => users as T[],
): Promise<Omit<ManagedUsersPage, 'items'> & { items: T[] }> {
  const asked = pageRequest(query, USERS_PAGE_SIZE);
  const [actor, version] = await Promise.all([loadActor(ctx.db, account), vendorScopeVersion(ctx.db)]);
  const scope = vendor.pinnedScopeOf(actor, 'a');
  const count = (key: string, ...conditions: RawBuilder<boolean>[]) =>
    ctx.vendorCounts.get(version, key, () => countAccountsAtVersion(ctx.db, ...conditions));
  const rowsOf = async (page: number) =>
    decorate(
      (
        await pageManagedVendors(ctx.db, scope.condition, {
          filter: asked.filter,
          sort: asked.sort ?? 'username',
          direction: asked.direction,
          offset: (page - 1) * asked.size,
          limit: asked.size,
        })
      ).map((row) => toManagedUser(row, actor)),
    );
  const { organizationIds } = scope;
  const [total, matching, askedRows] = await Promise.all([
    // A BRM's scope: counted together with other BRMs' counts asked at the same time.
    organizationIds
      ? ctx.vendorCounts.get(version, scope.key, () => ctx.organizationSetCounts.load(organizationIds))
      : count(scope.key, scope.condition),
    asked.filter
      ? count(`${scope.key}\u001f${asked.filter.toLowerCase()}`, scope.condition, matchesFilter(asked.filter))
      : null,
    rowsOf(asked.page),
  ]);
  const found = matching ?? total;
  const page = answeredPage(asked.page, asked.size, found);
  const rows = found === 0 ? [] : page === asked.page ? askedRows : await rowsOf(page);
  return {
    items: rows,
    total,
    matching: found,
    page,
    size: asked.size,
  };
}
