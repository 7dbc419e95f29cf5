import { sql, type Kysely } from 'kysely';

/**
 * Audit events may record a refusal: `denied` is an attempt to act outside one's organizations,
 * kept apart from `failure` (e.g. a wrong password) so reviewers can find them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table audit_events drop constraint if exists audit_events_outcome_check`.execute(db);
  await sql`
    alter table audit_events add constraint audit_events_outcome_check
      check (outcome in ('success', 'failure', 'denied'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table audit_events drop constraint audit_events_outcome_check`.execute(db);
  await sql`
    alter table audit_events add constraint audit_events_outcome_check
      check (outcome in ('success', 'failure'))`.execute(db);
}
