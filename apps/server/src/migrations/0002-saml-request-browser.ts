import { sql, type Kysely } from 'kysely';

/**
 * Binds each AuthnRequest to the browser that started it (a hash of a cookie nonce), so a
 * response for one person's request cannot sign another browser in (login CSRF).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table saml_requests add column browser_hash text not null default ''`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table saml_requests drop column browser_hash`.execute(db);
}
