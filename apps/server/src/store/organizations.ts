import type { Db, Tx } from '../platform/db';

// The owner of `organizations` and their `organization_domains`.

/** Active organizations owning an email domain, by name (registration's choices, a vendor's roles). */
export async function activeOrganizationsForDomain(
  db: Db | Tx,
  domain: string,
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('organizations as o')
    .innerJoin('organization_domains as d', 'd.organization_id', 'o.id')
    .select(['o.id', 'o.name'])
    .where('d.domain', '=', domain.toLowerCase())
    .where('o.is_active', '=', true)
    .orderBy('o.name')
    .execute();
}
