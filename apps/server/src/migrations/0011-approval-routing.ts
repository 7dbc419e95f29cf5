import { sql, type Kysely } from 'kysely';

/**
 * Approval routing (GOVERNANCE.md §5), beside the foundations' 0010 (request deadlines, status
 * `expired`, primary and backup BRMs, delegations, notices): each request item's own deadline (its
 * organization's tier at submission; a request may span tiers), when it was forwarded to the
 * backup BRMs or InfoSec and last reminded, and its routing history (who was sent, reminded,
 * forwarded, delegated it, and when) for the expanded Approvals row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The item's own deadline (its organization's tier at submission), forward and last reminder.
  await sql`alter table request_items add column expires_at timestamptz`.execute(db);
  await sql`alter table request_items add column forwarded_at timestamptz`.execute(db);
  await sql`alter table request_items add column reminded_at timestamptz`.execute(db);
  // An item takes its request's deadline (0010 gave pending ones the standard one from the upgrade).
  await sql`update request_items i set expires_at = coalesce(
      (select r.expires_at from requests r where r.id = i.request_id), i.created_at + interval '14 days')`.execute(
    db,
  );
  await sql`update request_items set expires_at = now() + interval '14 days'
    where status = 'pending' and expires_at < now()`.execute(db);
  await sql`alter table request_items alter column expires_at set not null`.execute(db);
  await sql`create index request_items_pending_due_idx on request_items (expires_at) where status = 'pending'`.execute(
    db,
  );

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
}
