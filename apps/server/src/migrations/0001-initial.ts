import { sql, type Kysely } from 'kysely';

/**
 * The tables of the portal's world (PRODUCT.md). Written once for both PGlite and PostgreSQL:
 * plain PostgreSQL types, lower() indexes instead of citext, gen_random_uuid() ids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = (name: string) => sql.raw(`${name} timestamptz not null default now()`);
  await sql`
    create table organizations (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(name) between 1 and 200),
      is_active boolean not null default true,
      ${ts('created_at')}
    )`.execute(db);
  await sql`create unique index organizations_name_key on organizations (lower(name))`.execute(db);

  await sql`
    create table organization_domains (
      organization_id uuid not null references organizations(id) on delete cascade,
      domain text not null check (domain = lower(domain) and length(domain) between 3 and 253),
      primary key (organization_id, domain)
    )`.execute(db);
  await sql`create index organization_domains_domain_idx on organization_domains (domain)`.execute(db);

  await sql`
    create table accounts (
      id uuid primary key default gen_random_uuid(),
      username text not null check (length(username) between 1 and 64),
      given_name text not null default '' check (length(given_name) <= 255),
      family_name text not null default '' check (length(family_name) <= 255),
      email text not null check (length(email) between 3 and 255),
      job_title text not null default '' check (length(job_title) <= 255),
      manager text not null default '' check (length(manager) <= 255),
      type text not null check (type in ('vendor', 'employee')),
      is_employee_brm boolean not null default false,
      is_admin boolean not null default false,
      status text not null check (status in ('pendingActivation', 'active', 'disabled', 'terminated')),
      password_hash text,
      password_changed_at timestamptz,
      ${ts('created_at')},
      ${ts('updated_at')},
      check (type = 'employee' or (not is_employee_brm and not is_admin))
    )`.execute(db);
  await sql`create unique index accounts_username_key on accounts (lower(username))`.execute(db);
  await sql`create index accounts_email_idx on accounts (lower(email))`.execute(db);
  await sql`create index accounts_names_idx on accounts (lower(given_name), lower(family_name))`.execute(db);

  await sql`
    create table password_history (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      password_hash text not null,
      ${ts('created_at')}
    )`.execute(db);
  await sql`create index password_history_account_idx on password_history (account_id, created_at desc)`.execute(
    db,
  );

  await sql`
    create table mfa_devices (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      kind text not null default 'totp' check (kind in ('totp')),
      nickname text not null check (length(nickname) between 1 and 64),
      secret_encrypted text not null,
      last_used_step bigint,
      confirmed_at timestamptz,
      ${ts('created_at')}
    )`.execute(db);
  await sql`create index mfa_devices_account_idx on mfa_devices (account_id)`.execute(db);

  await sql`
    create table brm_assignments (
      account_id uuid not null references accounts(id) on delete cascade,
      organization_id uuid not null references organizations(id) on delete cascade,
      ${ts('created_at')},
      primary key (account_id, organization_id)
    )`.execute(db);
  await sql`create index brm_assignments_org_idx on brm_assignments (organization_id)`.execute(db);

  await sql`
    create table requests (
      id uuid primary key default gen_random_uuid(),
      type text not null check (type in ('New Account', 'Add Access', 'Remove Access')),
      status text not null check (status in ('pending', 'approved', 'denied', 'cancelled')),
      requester_id uuid references accounts(id),
      beneficiary_id uuid references accounts(id),
      first_name text not null default '' check (length(first_name) <= 255),
      last_name text not null default '' check (length(last_name) <= 255),
      email text not null default '' check (length(email) <= 255),
      job_title text not null default '' check (length(job_title) <= 255),
      manager text not null default '' check (length(manager) <= 255),
      comment text not null default '' check (length(comment) <= 2000),
      ${ts('created_at')},
      ${ts('updated_at')}
    )`.execute(db);
  // One pending registration per email address, whatever the race.
  await sql`
    create unique index requests_pending_new_account_email_key on requests (lower(email))
    where type = 'New Account' and status = 'pending'`.execute(db);
  await sql`create index requests_beneficiary_idx on requests (beneficiary_id)`.execute(db);

  await sql`
    create table request_items (
      id uuid primary key default gen_random_uuid(),
      request_id uuid not null references requests(id) on delete cascade,
      organization_id uuid not null references organizations(id),
      operation text not null check (operation in ('Add', 'Remove')),
      status text not null check (status in ('pending', 'approved', 'denied', 'cancelled')),
      decided_by uuid references accounts(id),
      decided_at timestamptz,
      decision_comment text not null default '' check (length(decision_comment) <= 2000),
      ${ts('created_at')}
    )`.execute(db);
  await sql`create index request_items_request_idx on request_items (request_id)`.execute(db);
  await sql`create index request_items_pending_org_idx on request_items (organization_id) where status = 'pending'`.execute(
    db,
  );

  await sql`
    create table role_grants (
      account_id uuid not null references accounts(id) on delete cascade,
      organization_id uuid not null references organizations(id) on delete cascade,
      granted_by uuid references accounts(id),
      request_item_id uuid references request_items(id),
      ${ts('granted_at')},
      primary key (account_id, organization_id)
    )`.execute(db);
  await sql`create index role_grants_org_idx on role_grants (organization_id)`.execute(db);

  await sql`
    create table codes (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      kind text not null check (kind in ('activation', 'reset')),
      code_hash text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      ${ts('created_at')}
    )`.execute(db);
  await sql`create unique index codes_hash_key on codes (code_hash)`.execute(db);
  await sql`create index codes_account_idx on codes (account_id, kind)`.execute(db);

  await sql`
    create table sessions (
      id_hash text primary key,
      account_id uuid references accounts(id) on delete cascade,
      ${ts('created_at')},
      expires_at timestamptz not null,
      extensions_used integer not null default 0,
      authenticated_at timestamptz,
      reauthenticated_until timestamptz,
      revoked_at timestamptz,
      data jsonb not null default '{}'::jsonb,
      client_address text not null default '',
      user_agent text not null default ''
    )`.execute(db);
  await sql`create index sessions_account_idx on sessions (account_id)`.execute(db);
  await sql`create index sessions_expires_idx on sessions (expires_at)`.execute(db);

  await sql`
    create table saml_requests (
      id text primary key,
      ${ts('created_at')},
      expires_at timestamptz not null
    )`.execute(db);
  await sql`
    create table saml_assertions (
      id text primary key,
      expires_at timestamptz not null
    )`.execute(db);

  await sql`
    create table audit_events (
      id uuid primary key default gen_random_uuid(),
      ${ts('occurred_at')},
      action text not null,
      outcome text not null check (outcome in ('success', 'failure')),
      actor_id uuid,
      actor_username text not null default '',
      target_id uuid,
      target_username text not null default '',
      organization_id uuid,
      client_address text not null default '',
      details jsonb not null default '{}'::jsonb
    )`.execute(db);
  await sql`create index audit_events_time_idx on audit_events (occurred_at)`.execute(db);
  await sql`create index audit_events_target_idx on audit_events (target_id)`.execute(db);

  await sql`
    create table outbox (
      id uuid primary key default gen_random_uuid(),
      ${ts('created_at')},
      recipient text not null,
      subject text not null,
      text_body text not null,
      html_body text not null,
      template text not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      locked_until timestamptz,
      last_error text,
      sent_at timestamptz
    )`.execute(db);
  await sql`create index outbox_due_idx on outbox (next_attempt_at) where status = 'pending'`.execute(db);

  await sql`
    create table system_message (
      id integer primary key check (id = 1),
      enabled boolean not null default false,
      logged_in_only boolean not null default false,
      severity text not null default 'info' check (severity in ('info', 'success', 'warning', 'danger')),
      title text not null default '',
      text text not null default '',
      ${ts('updated_at')}
    )`.execute(db);
  await sql`insert into system_message (id) values (1)`.execute(db);

  await sql`
    create table rate_limits (
      key text primary key,
      hits integer not null,
      window_ends_at timestamptz not null,
      locked_until timestamptz
    )`.execute(db);
  await sql`create index rate_limits_window_idx on rate_limits (window_ends_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'rate_limits',
    'system_message',
    'outbox',
    'audit_events',
    'saml_assertions',
    'saml_requests',
    'sessions',
    'codes',
    'role_grants',
    'request_items',
    'requests',
    'brm_assignments',
    'mfa_devices',
    'password_history',
    'accounts',
    'organization_domains',
    'organizations',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
