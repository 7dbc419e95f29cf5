import { sql, type Kysely } from 'kysely';

/**
 * The admin People list at a hospital's size (issue 31): the hospital's people are a few hundred
 * accounts among tens of thousands of vendors. Partial indexes hold only them, so listing,
 * counting and sorting them (by username, names, email) never reads the vendors; the filter
 * starts from migration 0013's trigram index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index accounts_employee_username_idx on accounts (lower(username)) where type = 'employee'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index accounts_employee_username_idx`.execute(db);
}
