import { sql } from 'kysely';
import type { Tx } from '../../platform/db';

/**
 * Moves a live session's end to now + `lifetime` (an interval such as '15 minutes') and counts one
 * extension, unless `max` are used up; undefined when nothing changed.
 */
export async function useOneExtension(tx: Tx, idHash: string, max: number, lifetime: string) {
  return tx
    .updateTable('sessions')
    .set({
      expires_at: sql<Date>`now() + ${lifetime}::interval`,
      extensions_used: sql<number>`extensions_used + 1`,
    })
    .where('id_hash', '=', idHash)
    .where('extensions_used', '<', max)
    .where('revoked_at', 'is', null)
    .returning(['extensions_used', 'expires_at'])
    .executeTakeFirst();
}
