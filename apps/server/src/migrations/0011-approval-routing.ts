import { sql, type Kysely } from 'kysely';

/**
 * Approval routing (GOVERNANCE.md §5): a deadline on every request item, its reminders and its
 * forward to the backup BRMs or InfoSec, the routing history, status `expired`, primary and
 * backup BRMs, and "Away and Backup" delegations.
 *
 * The foundations' migration (0010) adds some of the same columns and tables by the names of
 * GOVERNANCE.md §2.4; the statements for those say `if not exists` so this migration runs the same
 * with or without it, and adds only what is routing's own: the item's deadline, its forward and
 * last reminder, the history, whether a delegation also moves the pending items, and InfoSec as a
 * delegate (no account: `delegate_id` null).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table organizations add column if not exists risk_tier text not null default 'standard'
    check (risk_tier in ('standard', 'high'))`.execute(db);
  await sql`alter table brm_assignments add column if not exists kind text not null default 'primary'
    check (kind in ('primary', 'backup'))`.execute(db);
  await sql`alter table requests add column if not exists expires_at timestamptz`.execute(db);
  for (const table of ['requests', 'request_items']) {
    await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.id(`${table}_status_check`)}`.execute(db);
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_status_check`)}
      check (status in ('pending', 'approved', 'denied', 'cancelled', 'expired'))`.execute(db);
  }
  await sql`
    create table if not exists governance_notices (
      kind text not null,
      subject_id uuid not null,
      milestone text not null,
      sent_at timestamptz not null,
      skipped boolean not null default false,
      primary key (kind, subject_id, milestone)
    )`.execute(db);
  await sql`
    create table if not exists brm_delegations (
      id uuid primary key default gen_random_uuid(),
      delegator_id uuid not null references accounts(id) on delete cascade,
      delegate_id uuid references accounts(id) on delete cascade,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      reason text not null default '',
      ended_at timestamptz,
      end_reason text
    )`.execute(db);
  await sql`alter table brm_delegations alter column delegate_id drop not null`.execute(db);
  await sql`alter table brm_delegations add column moves_pending boolean not null default true`.execute(db);
  await sql`create index if not exists brm_delegations_open_idx on brm_delegations (delegator_id) where ended_at is null`.execute(
    db,
  );
  await sql`create index brm_delegations_delegate_idx on brm_delegations (delegate_id) where ended_at is null`.execute(
    db,
  );

  // The item's own deadline (its organization's tier at submission), forward and last reminder.
  await sql`alter table request_items add column expires_at timestamptz`.execute(db);
  await sql`alter table request_items add column forwarded_at timestamptz`.execute(db);
  await sql`alter table request_items add column reminded_at timestamptz`.execute(db);
  // Items pending when this runs get the standard deadline from now on (none expires at once).
  await sql`update request_items set expires_at = created_at + interval '14 days' where expires_at is null`.execute(db);
  await sql`update request_items set expires_at = now() + interval '14 days'
    where status = 'pending' and expires_at < now()`.execute(db);
  await sql`alter table request_items alter column expires_at set not null`.execute(db);
  await sql`create index request_items_pending_due_idx on request_items (expires_at) where status = 'pending'`.execute(db);

  await sql`
    create table request_routing (
      id uuid primary key default gen_random_uuid(),
      item_id uuid not null references request_items(id) on delete cascade,
      occurred_at timestamptz not null,
      event text not null check (event in ('sent', 'reminded', 'forwarded', 'delegated', 'expired')),
      recipients text not null default '' check (length(recipients) <= 2000)
    )`.execute(db);
  await sql`create index request_routing_item_idx on request_routing (item_id, occurred_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table request_routing`.execute(db);
  await sql`drop index request_items_pending_due_idx`.execute(db);
  for (const column of ['expires_at', 'forwarded_at', 'reminded_at']) {
    await sql`alter table request_items drop column ${sql.id(column)}`.execute(db);
  }
  await sql`drop index brm_delegations_delegate_idx`.execute(db);
  await sql`alter table brm_delegations drop column moves_pending`.execute(db);
}
