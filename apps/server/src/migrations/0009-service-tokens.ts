import { sql, type Kysely } from 'kysely';

/**
 * Service tokens: API access for automation. Only the SHA-256 of a token is kept (`token_hash`,
 * looked up by equality: the caller's token is hashed and found, never compared as text). A
 * token acts as the admin in `owner_id`; `created_by` and `revoked_by` name who made and revoked
 * it as the audit trail does (that admin's username, or `cli:<user>` for the operators' CLI).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table service_tokens (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(name) between 1 and 100),
      token_hash text not null unique,
      scopes text[] not null check (cardinality(scopes) >= 1),
      owner_id uuid not null references accounts(id) on delete cascade,
      created_by text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null check (expires_at > created_at),
      last_used_at timestamptz,
      revoked_at timestamptz,
      revoked_by text
    )`.execute(db);
  await sql`create index service_tokens_owner on service_tokens (owner_id) where revoked_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table service_tokens`.execute(db);
}
