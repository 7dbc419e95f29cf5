import { sql, type Kysely } from 'kysely';

/**
 * A push may also ask the owner to approve a change of the account's second factors (pairing or
 * removing a phone), beside a sign-in or a password reset.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table push_challenges drop constraint if exists push_challenges_purpose_check`.execute(db);
  await sql`
    alter table push_challenges add constraint push_challenges_purpose_check
      check (purpose in ('signin', 'reset', 'factor'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from push_challenges where purpose = 'factor'`.execute(db);
  await sql`alter table push_challenges drop constraint push_challenges_purpose_check`.execute(db);
  await sql`
    alter table push_challenges add constraint push_challenges_purpose_check
      check (purpose in ('signin', 'reset'))`.execute(db);
}
