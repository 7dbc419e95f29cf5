import type { SystemMessage } from '@pra/contracts';
import type { Db } from '../../platform/db';

const none: SystemMessage = { enabled: false, loggedInOnly: false, severity: 'info', title: '', text: '' };

/**
 * The operator's banner; one meant for signed-in users only is hidden from anonymous callers, and
 * one with a start or end time is shown only between them.
 */
export async function readSystemMessage(
  db: Db,
  isSignedIn: boolean,
  now = new Date(),
): Promise<SystemMessage> {
  const row = await db.selectFrom('system_message').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row || (row.logged_in_only && !isSignedIn)) return none;
  if (row.starts_at && new Date(row.starts_at) > now) return none;
  if (row.ends_at && new Date(row.ends_at) <= now) return none;
  return {
    enabled: row.enabled,
    loggedInOnly: row.logged_in_only,
    severity: row.severity,
    title: row.title,
    text: row.text,
  };
}
