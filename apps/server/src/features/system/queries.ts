import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/** The one row of the operator's banner, if it was ever set. */
export async function systemMessageRow(db: Db) {
  return db.selectFrom('system_message').selectAll().where('id', '=', 1).executeTakeFirst();
}

/** Mail waiting to be sent and mail the relay refused: two counts, each from its partial index. */
export async function outboxCounts(db: Db): Promise<{ pending: number; undeliverable: number } | undefined> {
  const result = await sql<{ pending: number; undeliverable: number }>`
    select (select count(*) from outbox where status = 'pending')::int as pending,
           (select count(*) from outbox where status = 'undeliverable')::int as undeliverable`.execute(db);
  return result.rows[0];
}
