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
import { countManagedVendors, listManagedVendors, pageManagedVendors } from '../../store/accounts';

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
 * GET /api/brm/users with paging parameters: one page of the same vendors, filtered and sorted by
 * the database, with the counts (two statements besides the actor's).
 */
export async function pageManagedUsers(
  db: Db,
  account: Account,
  query: {
    page?: number;
    size?: number;
    filter?: string;
    sort?: ManagedUserSortKey;
    direction?: 'asc' | 'desc';
  },
): Promise<ManagedUsersPage> {
  const asked = pageRequest(query, USERS_PAGE_SIZE);
  const actor = await loadActor(db, account);
  const scope = vendor.scopeOf(actor, 'a');
  const { total, matching } = await countManagedVendors(db, scope, asked.filter);
  const page = answeredPage(asked.page, asked.size, matching);
  const rows =
    matching === 0
      ? []
      : await pageManagedVendors(db, scope, {
          filter: asked.filter,
          sort: asked.sort ?? 'username',
          direction: asked.direction,
          offset: (page - 1) * asked.size,
          limit: asked.size,
        });
  return { items: rows.map((row) => toManagedUser(row, actor)), total, matching, page, size: asked.size };
}
