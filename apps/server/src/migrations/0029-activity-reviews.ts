import { sql, type Kysely } from 'kysely';

/**
 * The weekly activity review (GOVERNANCE.md §9.4, issue 29): one row per week (Monday to Sunday in
 * the hospital's zone), keyed by its Monday. `digest` is the snapshot taken when it was generated
 * (counts, lists and audit-trail links; `total` counts its events for the list), so audit rows written later never change it; the review
 * is `generated` while `reviewed_at` is null and `reviewed` once InfoSec signed it off with a note.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table activity_reviews (
      period_start date primary key,
      period_end date not null,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      generated_at timestamptz not null,
      digest jsonb not null,
      total integer not null,
      reviewed_by uuid references accounts(id),
      reviewed_at timestamptz,
      note text,
      constraint activity_reviews_period_check check (period_end = period_start + 6 and ends_at > starts_at),
      constraint activity_reviews_sign_off_check check (
        (reviewed_at is null and reviewed_by is null and note is null)
        or (reviewed_at is not null and note is not null)
      )
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table activity_reviews`.execute(db);
}
