import type { Db } from '../../platform/db';

/** The one row of the operator's banner, if it was ever set. */
export async function systemMessageRow(db: Db) {
  return db.selectFrom('system_message').selectAll().where('id', '=', 1).executeTakeFirst();
}
