import type { SystemMessage } from '@pra/contracts';
import type { Db } from '../../platform/db';
import { systemMessageRow } from './queries';

const none: SystemMessage = { enabled: false, loggedInOnly: false, severity: 'info', title: '', text: '' };

/** The operator's banner; one meant for signed-in users only is hidden from anonymous callers. */
export async function readSystemMessage(db: Db, isSignedIn: boolean): Promise<SystemMessage> {
  const row = await systemMessageRow(db);
  if (!row || (row.logged_in_only && !isSignedIn)) return none;
  return {
    enabled: row.enabled,
    loggedInOnly: row.logged_in_only,
    severity: row.severity,
    title: row.title,
    text: row.text,
  };
}
