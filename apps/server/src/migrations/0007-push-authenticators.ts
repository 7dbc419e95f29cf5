import { sql, type Kysely } from 'kysely';

/**
 * The built-in MFA provider's push: authenticators (a phone paired by scanning a QR code that
 * carries a device key; only the key's hash is kept) and push challenges (a sign-in or reset
 * waiting for the phone's Approve or Deny). Both live in the database, so the instance that
 * waits and the instance the phone talks to need not be the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table authenticators (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      nickname text not null,
      key_hash text not null unique,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index authenticators_account on authenticators (account_id)`.execute(db);
  await sql`
    create table push_challenges (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      purpose text not null check (purpose in ('signin', 'reset')),
      status text not null default 'pending' check (status in ('pending', 'approved', 'denied', 'cancelled')),
      client_address text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      answered_at timestamptz,
      answered_by uuid references authenticators(id) on delete set null
    )`.execute(db);
  await sql`create index push_challenges_account on push_challenges (account_id, status)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table push_challenges`.execute(db);
  await sql`drop table authenticators`.execute(db);
}
