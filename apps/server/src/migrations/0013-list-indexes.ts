import { sql, type Kysely } from 'kysely';

/**
 * Indexes for every filter and sort of the lists people page through (issue 31), so that no list
 * or filter reads a table that grows with vendors, requests or events from end to end.
 *
 * - Manage Users filters with "contains" over username, email and name: a trigram index (pg_trgm,
 *   a trusted extension: the database owner may create it; PGlite loads it as a contrib module)
 *   on the one search text store/accounts.ts builds. Sorting by last name or by status has an
 *   index of its own; username, email and first name had one already (0001).
 * - The audit trail's person filter matches the actor's and the target's account id (target_id
 *   had an index, actor_id had none), its action filter is a prefix match (text_pattern_ops, so
 *   it does not depend on the database's collation).
 *
 * Creating them on a large audit trail takes a while and blocks writes to the table meanwhile:
 * docs/OPERATIONS.md says when to run this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`
    create index accounts_vendor_search_idx on accounts using gin
      ((lower(username || chr(31) || email || chr(31) || given_name || ' ' || family_name)) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index accounts_family_name_idx on accounts (lower(family_name))`.execute(db);
  await sql`
    create index accounts_status_order_idx on accounts
      ((case status when 'disabled' then 0 when 'active' then 1 else 2 end), lower(username))`.execute(db);

  // A BRM's vendors, from its organizations, read from the index alone.
  await sql`create index role_grants_org_account_idx on role_grants (organization_id, account_id)`.execute(
    db,
  );
  await sql`drop index role_grants_org_idx`.execute(db);
  // The approvals' own order (newest first), walked until a page of pending items is found.
  await sql`create index requests_created_idx on requests (created_at)`.execute(db);

  await sql`create index audit_events_actor_id_idx on audit_events (actor_id)`.execute(db);
  await sql`create index audit_events_action_idx on audit_events (action text_pattern_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'audit_events_action_idx',
    'audit_events_actor_id_idx',
    'requests_created_idx',
    'role_grants_org_account_idx',
    'accounts_status_order_idx',
    'accounts_family_name_idx',
    'accounts_vendor_search_idx',
  ]) {
    await sql`drop index ${sql.raw(index)}`.execute(db);
  }
  await sql`create index role_grants_org_idx on role_grants (organization_id)`.execute(db);
  // The extension stays: another schema object of the database may use it.
}
