import { sql, type Kysely } from 'kysely';

/**
 * Security keys and passkeys (WebAuthn) as a second factor of the built-in IdP (GOVERNANCE.md §7).
 * `webauthn_users` holds each account's user handle: 32 random bytes given to authenticators
 * instead of the username (kept apart from `accounts` so that table's rows keep their shape).
 * `webauthn_credentials` holds the public keys: the credential id (base64url, unique across
 * accounts: one credential never serves two accounts), the COSE public key (base64url), the signature counter
 * (non-zero counters must go up), transports, the backup flags and the authenticator's AAGUID.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webauthn_users (
      account_id uuid primary key references accounts(id) on delete cascade,
      user_handle text not null unique
    )`.execute(db);
  await sql`
    create table webauthn_credentials (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      credential_id text not null unique,
      public_key text not null,
      counter bigint not null default 0 check (counter >= 0),
      transports text not null default '',
      device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
      backed_up boolean not null default false,
      aaguid text not null,
      nickname text not null check (char_length(nickname) between 1 and 64),
      created_at timestamptz not null,
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index webauthn_credentials_account on webauthn_credentials (account_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table webauthn_credentials`.execute(db);
  await sql`drop table webauthn_users`.execute(db);
}
