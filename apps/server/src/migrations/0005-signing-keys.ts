import { sql, type Kysely } from 'kysely';

/**
 * Signing keys the portal generates itself (the built-in IdP's, and the SP's when no key files
 * are set), kept in the database so that every instance signs and verifies with the same key.
 * The private key is encrypted with DATA_ENCRYPTION_KEY.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table signing_keys (
      name text primary key,
      private_key_encrypted text not null,
      cert_pem text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table signing_keys`.execute(db);
}
