import { sql, type Kysely } from 'kysely';

/**
 * Dormant accounts and BRM departure (issue 27; ../shared/GOVERNANCE.md §6).
 *
 * - `accounts.active_since`: when the account was last enabled (an "Enable User" after an
 *   inactivity disable restarts the inactivity clock); the clock runs from the latest of the last
 *   sign-in, this and the account's creation.
 * - `accounts.leaving_on` (employees): the date a BRM leaves the hospital; `leaving_ends_role`
 *   whether their BRM role ends on that date; `responsibilities_transferred_at` when their
 *   organizations, approvals and sponsorships moved to successors (by an admin or by the sweep).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table accounts
      add column active_since timestamptz,
      add column leaving_on date,
      add column leaving_ends_role boolean not null default true,
      add column responsibilities_transferred_at timestamptz,
      add constraint accounts_leaving_employee_check check (type = 'employee' or leaving_on is null)`.execute(
    db,
  );
  await sql`create index accounts_leaving_idx on accounts (leaving_on) where leaving_on is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index accounts_leaving_idx`.execute(db);
  await sql`
    alter table accounts
      drop constraint accounts_leaving_employee_check,
      drop column responsibilities_transferred_at, drop column leaving_ends_role,
      drop column leaving_on, drop column active_since`.execute(db);
}
