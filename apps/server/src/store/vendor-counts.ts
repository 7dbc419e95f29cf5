import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../platform/db';

/** The version read, alone or as a scalar subquery beside a count. */
const readVersion = sql<{ version: string }>`select version from vendor_scope_version where id = 1`;

/**
 * The number migration 0032 bumps in the transaction of every change a vendor count can see
 * (vendor accounts, role grants, BRM assignments): counts kept under it stay exact while it stays.
 */
export async function vendorScopeVersion(db: Db): Promise<number> {
  const { rows } = await readVersion.execute(db);
  return Number(rows[0]?.version ?? 0);
}

/**
 * How many accounts (alias `a`) every one of `conditions` accepts, with the version of the data
 * counted, read in one statement (one snapshot), so the count is exact for that version.
 */
export async function countAccountsAtVersion(
  db: Db,
  ...conditions: RawBuilder<boolean>[]
): Promise<{ version: number; value: number }> {
  const { rows } = await sql<{ version: string; n: number }>`
    select (${readVersion}) as version, count(*)::int as n
    from accounts a where ${sql.join(conditions, sql` and `)}`.execute(db);
  return { version: Number(rows[0]!.version), value: rows[0]!.n };
}
