import { sql, type Kysely } from 'kysely';

/**
 * Access reviews (GOVERNANCE.md §4): a review cycle (its settings), one campaign per organization
 * (its state, when it was reminded and escalated, the previews shown at start and at escalation),
 * and one item per grant the campaign snapshotted when it opened (the reviewer's decision, the
 * vendor's answer, and what the close applied, by decision or by default).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table review_cycles (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(name) between 1 and 120),
      default_action text not null check (default_action in ('remove', 'keep', 'recommendation')),
      vendor_confirmation boolean not null,
      opens_at timestamptz not null,
      due_at timestamptz not null,
      created_by uuid references accounts(id) on delete set null,
      created_at timestamptz not null,
      check (due_at > opens_at)
    )`.execute(db);
  await sql`
    create table review_campaigns (
      id uuid primary key default gen_random_uuid(),
      cycle_id uuid not null references review_cycles(id) on delete cascade,
      organization_id uuid not null references organizations(id) on delete cascade,
      status text not null check (status in ('scheduled', 'open', 'closing', 'closed', 'cancelled')),
      opened_at timestamptz,
      reminded_day integer not null default 0,
      escalated_at timestamptz,
      closing_at timestamptz,
      closed_at timestamptz,
      cancel_reason text check (length(cancel_reason) <= 255),
      preview_at_start jsonb,
      preview_at_escalation jsonb,
      unique (cycle_id, organization_id)
    )`.execute(db);
  await sql`create index review_campaigns_active_idx on review_campaigns (status)
    where status in ('scheduled', 'open', 'closing')`.execute(db);
  await sql`create index review_campaigns_org_idx on review_campaigns (organization_id)`.execute(db);
  await sql`
    create table review_items (
      id uuid primary key default gen_random_uuid(),
      campaign_id uuid not null references review_campaigns(id) on delete cascade,
      account_id uuid not null references accounts(id) on delete cascade,
      organization_id uuid not null references organizations(id) on delete cascade,
      granted_at timestamptz not null,
      expires_at timestamptz not null,
      status text not null default 'pending'
        check (status in ('pending', 'kept', 'keptUntil', 'removed', 'applied', 'withdrawn')),
      decision text check (decision in ('keep', 'keepUntil', 'remove')),
      keep_until timestamptz,
      reason text check (length(reason) <= 255),
      decided_by uuid references accounts(id) on delete set null,
      decided_at timestamptz,
      vendor_answer text check (vendor_answer in ('yes', 'no')),
      vendor_comment text check (length(vendor_comment) <= 255),
      answered_at timestamptz,
      vendor_reminded_at timestamptz,
      applied_action text check (applied_action in ('kept', 'shortened', 'removed', 'withdrawn')),
      by_default boolean,
      recommendation text,
      applied_at timestamptz,
      unique (campaign_id, account_id)
    )`.execute(db);
  await sql`create index review_items_open_idx on review_items (campaign_id, id)
    where status not in ('applied', 'withdrawn')`.execute(db);
  await sql`create index review_items_account_idx on review_items (account_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table review_items`.execute(db);
  await sql`drop table review_campaigns`.execute(db);
  await sql`drop table review_cycles`.execute(db);
}
