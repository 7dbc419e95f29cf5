import { sql, type Kysely } from 'kysely';

/**
 * The provisioning outbox (docs/design/directory.md): with IDENTITY_STORE=ldap every change of a
 * vendor account the directory mirrors (created, names or mail, status, a role granted or taken,
 * an organization created or renamed) leaves a row in `provisioning`, written by a trigger in the
 * change's own transaction, so no code path can change an account without its row, and a rolled
 * back change leaves none. The worker applies the account's whole current state, so a row applied
 * twice has one effect. An account that already waits (unclaimed) gets no second row: the one
 * waiting applies the newest state. `portal_settings.directory_provisioning` turns the triggers on
 * (the start sets it from IDENTITY_STORE); off, the builtin store's mode writes nothing more.
 * `directory_reports` keeps reconciliation reports (the last one is shown to admins).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table portal_settings add column directory_provisioning boolean not null default false`.execute(
    db,
  );
  await sql`
    create table provisioning (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      account_id uuid references accounts(id) on delete cascade,
      organization_id uuid references organizations(id) on delete cascade,
      action text not null,
      status text not null default 'pending' check (status in ('pending', 'done')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      locked_until timestamptz,
      last_error text,
      done_at timestamptz,
      check ((account_id is null) <> (organization_id is null))
    )`.execute(db);
  await sql`create index provisioning_due_idx on provisioning (next_attempt_at) where status = 'pending'`.execute(
    db,
  );
  await sql`create index provisioning_account_idx on provisioning (account_id) where status = 'pending'`.execute(
    db,
  );
  await sql`
    create function provisioning_enqueue(p_account uuid, p_organization uuid, p_action text) returns void
    language plpgsql as $$
    begin
      if not coalesce((select directory_provisioning from portal_settings where id = 1), false) then
        return;
      end if;
      if exists (select 1 from provisioning
                 where status = 'pending' and locked_until is null
                   and account_id is not distinct from p_account
                   and organization_id is not distinct from p_organization) then
        return;
      end if;
      insert into provisioning (account_id, organization_id, action) values (p_account, p_organization, p_action);
    end $$`.execute(db);
  await sql`
    create function provisioning_on_grant() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform provisioning_enqueue(old.account_id, null, 'role.remove');
        return old;
      end if;
      perform provisioning_enqueue(new.account_id, null, 'role.grant');
      return new;
    end $$`.execute(db);
  await sql`
    create trigger role_grants_provisioning after insert or delete on role_grants
      for each row execute function provisioning_on_grant()`.execute(db);
  await sql`
    create function provisioning_on_account() returns trigger language plpgsql as $$
    begin
      if new.type <> 'vendor' then return new; end if;
      if tg_op = 'INSERT' then
        perform provisioning_enqueue(new.id, null, 'account.create');
      elsif new.status is distinct from old.status then
        perform provisioning_enqueue(new.id, null, 'account.' || new.status);
      elsif (new.given_name, new.family_name, new.email, new.username)
            is distinct from (old.given_name, old.family_name, old.email, old.username) then
        perform provisioning_enqueue(new.id, null, 'account.update');
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger accounts_provisioning after insert or update on accounts
      for each row execute function provisioning_on_account()`.execute(db);
  await sql`
    create function provisioning_on_organization() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.name is distinct from old.name then
        perform provisioning_enqueue(null, new.id, 'group.ensure');
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger organizations_provisioning after insert or update on organizations
      for each row execute function provisioning_on_organization()`.execute(db);
  await sql`
    create table directory_reports (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      drift integer not null,
      applied boolean not null,
      report jsonb not null
    )`.execute(db);
  await sql`create index directory_reports_created_idx on directory_reports (created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table directory_reports`.execute(db);
  await sql`drop trigger organizations_provisioning on organizations`.execute(db);
  await sql`drop trigger accounts_provisioning on accounts`.execute(db);
  await sql`drop trigger role_grants_provisioning on role_grants`.execute(db);
  await sql`drop function provisioning_on_organization()`.execute(db);
  await sql`drop function provisioning_on_account()`.execute(db);
  await sql`drop function provisioning_on_grant()`.execute(db);
  await sql`drop function provisioning_enqueue(uuid, uuid, text)`.execute(db);
  await sql`drop table provisioning`.execute(db);
  await sql`alter table portal_settings drop column directory_provisioning`.execute(db);
}
