import type { ManagedUser } from '@pra/contracts';
import type { Db } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { loadActor } from '../../policies/actor';
import * as vendor from '../../policies/vendor';
import { listManagedVendors } from '../../store/accounts';

/** GET /api/brm/users: the vendors the account manages, with its rights on each (vendor policy). */
export async function listManagedUsers(db: Db, account: Account): Promise<ManagedUser[]> {
  const actor = await loadActor(db, account);
  return (await listManagedVendors(db, vendor.scopeOf(actor, 'a'))).map((row) => ({
    username: row.username,
    givenName: row.given_name,
    familyName: row.family_name,
    email: row.email,
    active: row.status === 'active',
    status: row.status as ManagedUser['status'],
    canManage: vendor.can(actor, 'manage', row),
    canResetActivationCode: vendor.can(actor, 'resetActivationCode', row),
  }));
}
