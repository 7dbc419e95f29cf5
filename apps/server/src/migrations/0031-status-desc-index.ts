import { sql, type Kysely } from 'kysely';

/**
 * Manage Users sorted by status, descending: the order is the status's rank descending, then the
 * username ascending (ties keep the order the list had before it was paged), which the ascending
 * index of migration 0013 cannot give read backwards (that would put the usernames descending).
 * Without this index PostgreSQL sorted every vendor in the BRM's scope: for a BRM of ten
 * organizations of a few hundred vendors each it chose to read `accounts` end to end
 * (policies/list-plans.test.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index accounts_status_order_desc_idx on accounts
    ((case status when 'disabled' then 0 when 'active' then 1 else 2 end) desc, lower(username))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index accounts_status_order_desc_idx`.execute(db);
}
