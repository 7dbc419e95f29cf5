import { sql, type Kysely } from 'kysely';

/**
 * The 30-day grace to add a security key or passkey (GOVERNANCE.md §7.4): `passkey_requirements`
 * holds, per account, when the built-in IdP first saw that one of the account's organizations
 * requires phishing-resistant sign-in. The row goes when the requirement drops (lowering takes
 * effect at once), so raising it again starts a new grace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table passkey_requirements (
      account_id uuid primary key references accounts(id) on delete cascade,
      since timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table passkey_requirements`.execute(db);
}
