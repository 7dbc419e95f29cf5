import { sql, type Kysely } from 'kysely';

/**
 * Governance foundations (issue 26; ../shared/GOVERNANCE.md §2.4, which calls it 0008): what
 * time-limited access (§3) and approval routing (§5) keep in the database.
 *
 * - Organizations get a risk tier and an optional contract end; `governance_policies` holds one
 *   row of settings per tier (seeded with §2.3's defaults; the web and the sweeper read the
 *   settings object's camelCase keys, `packages/contracts/src/governance.ts` is its schema).
 * - BRM assignments are primary or backup.
 * - Every grant gets an end (`expires_at`, not null after the backfill below) and a sponsor of
 *   record; ended grants move to `grant_history`, so `role_grants` keeps holding only current
 *   grants and every existing query stays right.
 * - Requests get a deadline and the `expired` status, items a requested and a granted end date,
 *   and the request type `Extend Access` (its items' operation `Extend`).
 * - Accounts get the last sign-in (backfilled from the latest successful `signin` audit event),
 *   why and when they were disabled, and the auditor flag (employees only).
 * - `brm_delegations` (Away and Backup), `governance_notices` (milestone mails sent once: the
 *   unique key is what makes them idempotent), `governance_sweep` (the one lease row that lets one
 *   instance sweep at a time) and the standalone test clock's offset in `portal_settings`.
 *
 * Backfill of end dates (§2.4): every existing grant ends at the later of its start plus its
 * tier's "access granted for" days and the migration time plus 30 days, the latter spread over the
 * 30 days after that by account (all grants of one account on one day), so that no single day
 * ends hundreds of grants and no "14 days left" notice goes out sooner than 16 days after the
 * upgrade. The sponsor is whoever granted it while they still manage the organization.
 */
const standard = {
  accessDays: 180,
  maxAccessDays: 365,
  extensionJustificationRequired: false,
  expiryNoticeDays: [14, 7, 1],
  reviewCadenceMonths: 3,
  reviewWindowDays: 14,
  reviewerReminderDays: [7, 13],
  reviewEscalationDay: 10,
  reviewDefaultAction: 'remove',
  reviewerJustification: 'remove',
  vendorConfirmation: 'optional',
  inactivityRecommendationDays: 90,
  requestDecisionDays: 14,
  approverReminderDays: [3, 7],
  forwardDay: 8,
  inactivityDisableDays: 90,
  inactivityWarningDays: [14, 7],
  terminateAfterDisableDays: 30,
  neverActivatedCloseDays: 30,
  signInStrength: 'mfa',
  passkeyGraceDays: 30,
  aupRenewalDays: 365,
  aupGraceDays: 30,
  emergencyMaxHours: 72,
  departureDecisionHours: 24,
  departureSuspendAtOnce: false,
};
const high = {
  ...standard,
  accessDays: 90,
  maxAccessDays: 180,
  extensionJustificationRequired: true,
  reviewerJustification: 'keepAndRemove',
  vendorConfirmation: 'requested',
  inactivityRecommendationDays: 30,
  requestDecisionDays: 7,
  approverReminderDays: [2, 4],
  forwardDay: 4,
  inactivityDisableDays: 35,
  inactivityWarningDays: [7, 1],
  signInStrength: 'phishingResistant',
  passkeyGraceDays: null,
  departureDecisionHours: 4,
  departureSuspendAtOnce: true,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table organizations
      add column risk_tier text not null default 'standard' check (risk_tier in ('standard', 'high')),
      add column contract_ends_on date`.execute(db);

  await sql`
    create table governance_policies (
      tier text primary key check (tier in ('standard', 'high')),
      settings jsonb not null,
      updated_at timestamptz not null default now(),
      updated_by uuid references accounts(id) on delete set null
    )`.execute(db);
  await sql`
    insert into governance_policies (tier, settings)
    values ('standard', ${JSON.stringify(standard)}::jsonb), ('high', ${JSON.stringify(high)}::jsonb)`.execute(
    db,
  );

  await sql`
    alter table brm_assignments
      add column kind text not null default 'primary' check (kind in ('primary', 'backup'))`.execute(db);

  await sql`
    alter table role_grants
      add column expires_at timestamptz,
      add column sponsor_id uuid references accounts(id) on delete set null,
      add column last_confirmed_at timestamptz,
      add column last_confirmed_by uuid references accounts(id) on delete set null`.execute(db);
  await sql`
    with spread as (
      select account_id, (dense_rank() over (order by account_id) - 1) % 30 as day
      from (select distinct account_id from role_grants) a
    )
    update role_grants g
       set expires_at = greatest(
             g.granted_at + make_interval(days => (p.settings ->> 'accessDays')::int),
             now() + make_interval(days => 30 + s.day::int)),
           sponsor_id = case when exists (
             select 1 from brm_assignments b join accounts a on a.id = b.account_id
              where b.account_id = g.granted_by and b.organization_id = g.organization_id
                and a.status = 'active' and a.is_employee_brm) then g.granted_by end
      from organizations o, governance_policies p, spread s
     where o.id = g.organization_id and p.tier = o.risk_tier and s.account_id = g.account_id`.execute(db);
  await sql`
    alter table role_grants alter column expires_at set not null,
      alter column expires_at set default now() + interval '180 days'`.execute(db);
  await sql`create index role_grants_expires_idx on role_grants (expires_at)`.execute(db);

  await sql`
    create table grant_history (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      organization_id uuid not null references organizations(id) on delete cascade,
      granted_at timestamptz not null,
      granted_by uuid references accounts(id) on delete set null,
      expires_at timestamptz not null,
      ended_at timestamptz not null,
      end_reason text not null check (end_reason in
        ('expired', 'removed', 'revoked', 'defaultRemoved', 'terminated', 'emergencyEnded')),
      ended_by uuid references accounts(id) on delete set null,
      sponsor_id uuid references accounts(id) on delete set null
    )`.execute(db);
  await sql`create index grant_history_org_idx on grant_history (organization_id, ended_at)`.execute(db);
  await sql`create index grant_history_account_idx on grant_history (account_id, ended_at)`.execute(db);

  await sql`alter table requests add column expires_at timestamptz`.execute(db);
  // Pending requests get the standard deadline from now: none expires at the upgrade.
  await sql`update requests set expires_at = now() + interval '14 days' where status = 'pending'`.execute(db);
  await sql`alter table requests drop constraint if exists requests_type_check`.execute(db);
  await sql`
    alter table requests add constraint requests_type_check
      check (type in ('New Account', 'Add Access', 'Remove Access', 'Extend Access'))`.execute(db);
  await sql`alter table requests drop constraint if exists requests_status_check`.execute(db);
  await sql`
    alter table requests add constraint requests_status_check
      check (status in ('pending', 'approved', 'denied', 'cancelled', 'expired'))`.execute(db);
  await sql`create index requests_status_expires_idx on requests (status, expires_at)`.execute(db);

  await sql`
    alter table request_items
      add column requested_until timestamptz,
      add column granted_until timestamptz`.execute(db);
  await sql`alter table request_items drop constraint if exists request_items_status_check`.execute(db);
  await sql`
    alter table request_items add constraint request_items_status_check
      check (status in ('pending', 'approved', 'denied', 'cancelled', 'expired'))`.execute(db);
  await sql`alter table request_items drop constraint if exists request_items_operation_check`.execute(db);
  await sql`
    alter table request_items add constraint request_items_operation_check
      check (operation in ('Add', 'Remove', 'Extend'))`.execute(db);

  await sql`
    alter table accounts
      add column last_sign_in_at timestamptz,
      add column disabled_reason text
        check (disabled_reason in ('manual', 'noAccess', 'inactive', 'departureReported')),
      add column disabled_at timestamptz,
      add column is_auditor boolean not null default false,
      add constraint accounts_auditor_employee_check check (type = 'employee' or not is_auditor)`.execute(db);
  await sql`
    update accounts a set last_sign_in_at = e.at
      from (select target_id, max(occurred_at) as at from audit_events
             where action = 'signin' and outcome = 'success' and target_id is not null
             group by target_id) e
     where e.target_id = a.id`.execute(db);
  await sql`
    update accounts set disabled_reason = 'manual', disabled_at = updated_at
     where status = 'disabled'`.execute(db);
  await sql`
    create index accounts_last_sign_in_idx on accounts (last_sign_in_at)
    where status = 'active' and type = 'vendor'`.execute(db);
  await sql`create index accounts_disabled_idx on accounts (disabled_at) where status = 'disabled'`.execute(
    db,
  );

  await sql`
    create table brm_delegations (
      id uuid primary key default gen_random_uuid(),
      delegator_id uuid not null references accounts(id) on delete cascade,
      delegate_id uuid references accounts(id) on delete cascade,
      to_infosec boolean not null default false,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      reason text not null default '' check (length(reason) <= 255),
      move_pending boolean not null default true,
      created_at timestamptz not null default now(),
      ended_at timestamptz,
      end_reason text,
      check (ends_at > starts_at),
      check ((delegate_id is null) = to_infosec),
      check (delegate_id is null or delegate_id <> delegator_id)
    )`.execute(db);
  await sql`create index brm_delegations_delegator_idx on brm_delegations (delegator_id) where ended_at is null`.execute(
    db,
  );
  await sql`create index brm_delegations_delegate_idx on brm_delegations (delegate_id) where ended_at is null`.execute(
    db,
  );

  await sql`
    create table governance_notices (
      kind text not null,
      subject_id text not null,
      milestone text not null,
      sent_at timestamptz not null,
      skipped boolean not null default false,
      primary key (kind, subject_id, milestone)
    )`.execute(db);

  await sql`
    create table governance_sweep (
      id integer primary key check (id = 1),
      owner text not null default '',
      leased_until timestamptz not null default '-infinity',
      last_started_at timestamptz,
      last_finished_at timestamptz,
      last_summary jsonb not null default '{}'::jsonb
    )`.execute(db);
  await sql`insert into governance_sweep (id) values (1)`.execute(db);

  // The standalone TEST_CLOCK's offset from the system clock (never read in production).
  await sql`alter table portal_settings add column clock_offset_ms bigint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table portal_settings drop column clock_offset_ms`.execute(db);
  await sql`drop table governance_sweep`.execute(db);
  await sql`drop table governance_notices`.execute(db);
  await sql`drop table brm_delegations`.execute(db);
  await sql`drop index accounts_disabled_idx`.execute(db);
  await sql`drop index accounts_last_sign_in_idx`.execute(db);
  await sql`
    alter table accounts
      drop constraint accounts_auditor_employee_check,
      drop column is_auditor, drop column disabled_at, drop column disabled_reason,
      drop column last_sign_in_at`.execute(db);
  await sql`update request_items set status = 'cancelled' where status = 'expired'`.execute(db);
  await sql`delete from request_items where operation = 'Extend'`.execute(db);
  await sql`alter table request_items drop constraint request_items_operation_check`.execute(db);
  await sql`
    alter table request_items add constraint request_items_operation_check
      check (operation in ('Add', 'Remove'))`.execute(db);
  await sql`alter table request_items drop constraint request_items_status_check`.execute(db);
  await sql`
    alter table request_items add constraint request_items_status_check
      check (status in ('pending', 'approved', 'denied', 'cancelled'))`.execute(db);
  await sql`alter table request_items drop column granted_until, drop column requested_until`.execute(db);
  await sql`drop index requests_status_expires_idx`.execute(db);
  await sql`update requests set status = 'cancelled' where status = 'expired'`.execute(db);
  await sql`delete from requests where type = 'Extend Access'`.execute(db);
  await sql`alter table requests drop constraint requests_status_check`.execute(db);
  await sql`
    alter table requests add constraint requests_status_check
      check (status in ('pending', 'approved', 'denied', 'cancelled'))`.execute(db);
  await sql`alter table requests drop constraint requests_type_check`.execute(db);
  await sql`
    alter table requests add constraint requests_type_check
      check (type in ('New Account', 'Add Access', 'Remove Access'))`.execute(db);
  await sql`alter table requests drop column expires_at`.execute(db);
  await sql`drop table grant_history`.execute(db);
  await sql`drop index role_grants_expires_idx`.execute(db);
  await sql`
    alter table role_grants
      drop column last_confirmed_by, drop column last_confirmed_at, drop column sponsor_id,
      drop column expires_at`.execute(db);
  await sql`alter table brm_assignments drop column kind`.execute(db);
  await sql`drop table governance_policies`.execute(db);
  await sql`alter table organizations drop column contract_ends_on, drop column risk_tier`.execute(db);
}
