import type { Db } from '../../platform/db';

/** The newest outbox messages: the dev mailbox shows at most this many. */
const LIMIT = 200;

export async function listMessages(db: Db) {
  return db
    .selectFrom('outbox')
    .select(['id', 'recipient', 'subject', 'text_body', 'status', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LIMIT)
    .execute();
}

export async function findMessage(db: Db, id: string) {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
}
