import { sql, type Kysely } from 'kysely';

/**
 * The last good copy of the external IdP's metadata fetched from IDP_METADATA's URL, so that an
 * IdP (or federation) outage at start does not stop the portal, and every instance starts from
 * the same copy. Metadata is public; nothing secret is kept here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idp_metadata (
      source text primary key check (length(source) <= 2000),
      xml text not null,
      fetched_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table idp_metadata`.execute(db);
}
