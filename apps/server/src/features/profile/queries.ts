import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db';

/** Marks the session re-authenticated (its current password confirmed) for `minutes`. */
export async function markReauthenticated(db: Db | Tx, idHash: string, minutes: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ reauthenticated_until: sql<Date>`now() + ${`${minutes} minutes`}::interval` })
    .where('id_hash', '=', idHash)
    .execute();
}

/**
 * Uses up the session's re-authentication mark if it is still valid: true for exactly one caller
 * (a second change with the same mark, even concurrent, finds it gone).
 */
export async function consumeReauthentication(tx: Tx, idHash: string): Promise<boolean> {
  const row = await tx
    .updateTable('sessions')
    .set({ reauthenticated_until: null })
    .where('id_hash', '=', idHash)
    .where('reauthenticated_until', '>', sql<Date>`now()`)
    .where('revoked_at', 'is', null)
    .returning('id_hash')
    .executeTakeFirst();
  return Boolean(row);
}
