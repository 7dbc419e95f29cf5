import { sql, type Kysely } from 'kysely';

/**
 * Emergency access and vendor-reported departures (GOVERNANCE.md §10).
 *
 * - `emergency_grants`: an admin's time-boxed grant of one organization (at most the tier's
 *   `emergencyMaxHours`) with its ticket number and reason; its follow-up item for the BRMs is a
 *   request of type `Emergency Access` (item operation `Acknowledge`). The grant itself is an
 *   ordinary `role_grants` row marked with `emergency_id`, so directory groups follow it as any
 *   grant; it ends at `ends_at` (the sweep) or by "Remove now", and an ordinary grant of the same
 *   organization made meanwhile replaces it (`replaced`).
 * - `departure_reports`: a vendor reports that a colleague of the same organization left
 *   (reported → confirmed | dismissed), decided in Approvals as a request of type `Departure
 *   Reported` (item operation `Departure`); `due_at` is the tier's SLA, after which the report is
 *   forwarded to InfoSec (`forwarded_at`); `suspended` when the high tier disabled the account at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table requests drop constraint if exists requests_type_check`.execute(db);
  await sql`
    alter table requests add constraint requests_type_check
      check (type in ('New Account', 'Add Access', 'Remove Access', 'Extend Access',
                      'Emergency Access', 'Departure Reported'))`.execute(db);
  await sql`alter table request_items drop constraint if exists request_items_operation_check`.execute(db);
  await sql`
    alter table request_items add constraint request_items_operation_check
      check (operation in ('Add', 'Remove', 'Extend', 'Acknowledge', 'Departure'))`.execute(db);

  await sql`
    create table emergency_grants (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      organization_id uuid not null references organizations(id) on delete cascade,
      request_id uuid not null references requests(id) on delete cascade,
      ticket text not null check (length(ticket) between 1 and 255),
      reason text not null default '' check (length(reason) <= 255),
      hours int not null check (hours between 1 and 96),
      granted_by uuid references accounts(id) on delete set null,
      granted_at timestamptz not null,
      ends_at timestamptz not null,
      ended_at timestamptz,
      end_reason text check (end_reason in ('expired', 'removed', 'replaced')),
      ended_by uuid references accounts(id) on delete set null
    )`.execute(db);
  await sql`create index emergency_grants_due_idx on emergency_grants (ends_at) where ended_at is null`.execute(
    db,
  );
  await sql`create index emergency_grants_request_idx on emergency_grants (request_id)`.execute(db);
  await sql`
    alter table role_grants
      add column emergency_id uuid references emergency_grants(id) on delete set null`.execute(db);

  await sql`
    create table departure_reports (
      id uuid primary key default gen_random_uuid(),
      target_id uuid not null references accounts(id) on delete cascade,
      reporter_id uuid references accounts(id) on delete set null,
      organization_id uuid not null references organizations(id) on delete cascade,
      request_id uuid not null references requests(id) on delete cascade,
      left_on date not null,
      note text not null default '' check (length(note) <= 255),
      status text not null default 'reported' check (status in ('reported', 'confirmed', 'dismissed')),
      suspended boolean not null default false,
      created_at timestamptz not null,
      due_at timestamptz not null,
      forwarded_at timestamptz,
      decided_by uuid references accounts(id) on delete set null,
      decided_at timestamptz,
      decision_reason text not null default ''
    )`.execute(db);
  await sql`create index departure_reports_due_idx on departure_reports (due_at) where status = 'reported'`.execute(
    db,
  );
  await sql`create index departure_reports_request_idx on departure_reports (request_id)`.execute(db);
  await sql`create index departure_reports_target_idx on departure_reports (target_id, organization_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table departure_reports`.execute(db);
  await sql`alter table role_grants drop column emergency_id`.execute(db);
  await sql`drop table emergency_grants`.execute(db);
  await sql`delete from requests where type in ('Emergency Access', 'Departure Reported')`.execute(db);
  await sql`alter table request_items drop constraint if exists request_items_operation_check`.execute(db);
  await sql`
    alter table request_items add constraint request_items_operation_check
      check (operation in ('Add', 'Remove', 'Extend'))`.execute(db);
  await sql`alter table requests drop constraint if exists requests_type_check`.execute(db);
  await sql`
    alter table requests add constraint requests_type_check
      check (type in ('New Account', 'Add Access', 'Remove Access', 'Extend Access'))`.execute(db);
}
