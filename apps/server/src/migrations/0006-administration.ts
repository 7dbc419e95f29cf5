import { sql, type Kysely } from 'kysely';

/**
 * Administration (issue 13).
 *
 * The audit trail is append-only for the app. A trigger, not privileges: the app runs its own
 * migrations, so it owns its tables, and an owner can always grant itself back what was revoked;
 * PGlite has a single role anyway. The trigger refuses every UPDATE, and every DELETE or TRUNCATE
 * unless the transaction set `pra.audit_purge` — which only `purge_audit_events()` does, and only
 * the operators' CLI calls it (retention purge). This guards against the app's own code and
 * mistakes; an operator who wants it enforced against a compromised app too runs the server as a
 * role that is granted only INSERT and SELECT on audit_events (docs/OPERATIONS.md).
 *
 * Also: the keyset index of the audit list (newest first), the system message gets an optional
 * start and end, and the maintenance flag lives in the database so admins can switch it
 * (IIQ_MAINTENANCE still forces it on). Email domains get no unique index: the spec's registration
 * lets a domain belong to several organizations; administration refuses to add a domain another
 * organization has (features/administration/organizations.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'UPDATE' and current_setting('pra.audit_purge', true) = 'on' then
        return old;
      end if;
      raise exception 'audit events cannot be changed or deleted (%)', tg_op
        using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  // BEFORE, not AFTER: an AFTER row trigger queues an event per row, in memory, for a big purge.
  await sql`
    create trigger audit_events_no_change before update or delete on audit_events
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`
    create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only()`.execute(db);
  await sql`
    create function purge_audit_events(cutoff timestamptz) returns bigint language plpgsql as $$
    declare removed bigint;
    begin
      perform set_config('pra.audit_purge', 'on', true);
      delete from audit_events where occurred_at < cutoff;
      get diagnostics removed = row_count;
      perform set_config('pra.audit_purge', 'off', true);
      return removed;
    end $$`.execute(db);

  await sql`create index audit_events_keyset_idx on audit_events (occurred_at desc, id desc)`.execute(db);
  await sql`create index audit_events_actor_idx on audit_events (lower(actor_username))`.execute(db);
  await sql`create index audit_events_target_name_idx on audit_events (lower(target_username))`.execute(db);
  await sql`create index audit_events_org_idx on audit_events (organization_id)`.execute(db);

  await sql`alter table system_message add column starts_at timestamptz`.execute(db);
  await sql`alter table system_message add column ends_at timestamptz`.execute(db);

  await sql`
    create table portal_settings (
      id integer primary key check (id = 1),
      maintenance boolean not null default false,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`insert into portal_settings (id) values (1)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table portal_settings`.execute(db);
  await sql`alter table system_message drop column ends_at`.execute(db);
  await sql`alter table system_message drop column starts_at`.execute(db);
  for (const index of [
    'audit_events_org_idx',
    'audit_events_target_name_idx',
    'audit_events_actor_idx',
    'audit_events_keyset_idx',
  ]) {
    await sql`drop index ${sql.raw(index)}`.execute(db);
  }
  await sql`drop function purge_audit_events(timestamptz)`.execute(db);
  await sql`drop trigger audit_events_no_truncate on audit_events`.execute(db);
  await sql`drop trigger audit_events_no_change on audit_events`.execute(db);
  await sql`drop function audit_events_append_only()`.execute(db);
}
