import type { Db } from '../platform/db';

// The owner of `idp_metadata`: the last good copy of the IdP's metadata per IDP_METADATA URL.

export interface StoredMetadata {
  xml: string;
  fetchedAt: Date;
}

/** Keeps `xml` as the last good copy of `source` (replacing an older one). */
export async function saveLastGood(db: Db, source: string, xml: string, fetchedAt: Date): Promise<void> {
  await db
    .insertInto('idp_metadata')
    .values({ source, xml, fetched_at: fetchedAt })
    .onConflict((oc) => oc.column('source').doUpdateSet({ xml, fetched_at: fetchedAt }))
    .execute();
}

/** The last good copy of `source`, if one was ever fetched. */
export async function readLastGood(db: Db, source: string): Promise<StoredMetadata | undefined> {
  const row = await db
    .selectFrom('idp_metadata')
    .select(['xml', 'fetched_at'])
    .where('source', '=', source)
    .executeTakeFirst();
  return row ? { xml: row.xml, fetchedAt: new Date(row.fetched_at) } : undefined;
}
