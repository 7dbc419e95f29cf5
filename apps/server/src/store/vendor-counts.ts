import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../platform/db';
import type { Versioned } from '../platform/versioned-cache';

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

/** A count and the version of the data it counted. */
export type Counted = Versioned<number>;

/**
 * How many accounts (alias `a`) every one of `conditions` accepts, with the version of the data
 * counted, read in one statement (one snapshot), so the count is exact for that version.
 */
export async function countAccountsAtVersion(db: Db, ...conditions: RawBuilder<boolean>[]): Promise<Counted> {
  const { rows } = await sql<{ version: string; n: number }>`
    select (${readVersion}) as version, count(*)::int as n
    from accounts a where ${sql.join(conditions, sql` and `)}`.execute(db);
  return { version: Number(rows[0]!.version), value: rows[0]!.n };
}

/** The most organization sets one statement counts: a bit of a bigint each. */
export const MAX_SETS_AT_ONCE = 63;

/**
 * For each of `sets` (organization ids), how many accounts (alias `a`) that meet `counted` (the
 * live vendors, `vendor.liveVendorAccount`) hold a role grant in one of its organizations, as
 * `vendor.pinnedScopeOf`'s condition counts them, all in one statement with the
 * version (one snapshot): each organization carries a bit per set it is in, each vendor the bits
 * of its grants' organizations ORed, and each set's count is the vendors with its bit. Ten BRMs'
 * counts of some 45,000 vendors each took about 65 ms together against about 22 ms each alone
 * (bench/RESULTS.md): the grants are read once, not once per set.
 */
export async function countVendorsOfOrganizationSets(
  db: Db,
  sets: readonly (readonly string[])[],
  counted: RawBuilder<boolean>,
): Promise<{ version: number; values: number[] }> {
  if (sets.length === 0 || sets.length > MAX_SETS_AT_ONCE) throw new RangeError(`${sets.length} sets`);
  const masks = new Map<string, bigint>();
  sets.forEach((ids, i) => {
    for (const id of ids) masks.set(id, (masks.get(id) ?? 0n) | (1n << BigInt(i)));
  });
  const counts = sets.map(
    (_, i) => sql`coalesce(sum(((m.mask >> ${sql.raw(String(i))}) & 1)::int), 0)::int as ${sql.ref(`c${i}`)}`,
  );
  const { rows } = await sql<Record<string, number | string>>`
    with organization_bits(organization_id, mask) as (
      select * from unnest(${[...masks.keys()]}::uuid[], ${[...masks.values()].map(String)}::bigint[])
    ),
    m as (
      select g.account_id, bit_or(o.mask) as mask
      from role_grants g join organization_bits o on o.organization_id = g.organization_id
      group by g.account_id
    )
    select (${readVersion}) as version, ${sql.join(counts)}
    from m join accounts a on a.id = m.account_id
    where ${counted}`.execute(db);
  const row = rows[0]!;
  return { version: Number(row.version), values: sets.map((_, i) => Number(row[`c${i}`])) };
}
