import type { Db, Tx } from '../platform/db';
import { hasKindSql } from './account-kinds';

/**
 * The organizations assigned to the account as a BRM (they count only while it is an employee BRM:
 * see policies/actor.ts, which reads them through this).
 */
export async function managedOrganizationIds(db: Db | Tx, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('brm_assignments')
    .select('organization_id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.organization_id);
}

/**
 * Whom to mail about a request of the organization (a registration, an access request): its active BRMs, or — when it has none — the
 * active admins, so that no registration waits unseen.
 */
export async function decidersOf(db: Db | Tx, organizationId: string): Promise<string[]> {
  const brms = await db
    .selectFrom('accounts as a')
    .innerJoin('brm_assignments as b', 'b.account_id', 'a.id')
    .select('a.email')
    .where('b.organization_id', '=', organizationId)
    .where('a.status', '=', 'active')
    .where(hasKindSql('a', 'employeeBrm'))
    .execute();
  if (brms.length > 0) return brms.map((r) => r.email);
  const admins = await db
    .selectFrom('accounts as a')
    .select('a.email')
    .where(hasKindSql('a', 'admin'))
    .where('a.status', '=', 'active')
    .execute();
  return admins.map((r) => r.email);
}
