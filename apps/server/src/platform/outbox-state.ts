import { sql } from 'kysely';
import type { Db } from './db';

export interface OutboxState {
  pending: number;
  undeliverable: number;
  /** Age of the oldest mail still waiting to be sent; 0 when none waits. */
  oldestPendingSeconds: number;
}

/** The outbox at a glance, for the service check and the metrics; each part from its index. */
export async function readOutboxState(db: Db): Promise<OutboxState> {
  const result = await sql<OutboxState>`
    select (select count(*) from outbox where status = 'pending')::int as "pending",
           (select count(*) from outbox where status = 'undeliverable')::int as "undeliverable",
           coalesce(extract(epoch from now() - (select min(created_at) from outbox
                                                where status = 'pending')), 0)::float8
             as "oldestPendingSeconds"`.execute(db);
  const row = result.rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    undeliverable: Number(row?.undeliverable ?? 0),
    oldestPendingSeconds: Number(row?.oldestPendingSeconds ?? 0),
  };
}
