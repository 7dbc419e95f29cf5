import type { AdminSystemMessage, SystemMessage } from '@pra/contracts';
import type { Db, Tx } from '../platform/db';
import type { SystemMessageJson } from '../store/session-lookup';
import { findSystemMessage } from '../store/settings';

const none: SystemMessage = { enabled: false, loggedInOnly: false, severity: 'info', title: '', text: '' };

/** The stored message with its time window, as admins edit it. */
export async function readStoredSystemMessage(db: Db | Tx): Promise<AdminSystemMessage | undefined> {
  return storedMessageOf(await findSystemMessage(db));
}

/** The banner's row, read alone or with a page's session lookup (times as dates or as text). */
function storedMessageOf(
  row:
    | (Omit<SystemMessageJson, 'starts_at' | 'ends_at'> & {
        starts_at: Date | string | null;
        ends_at: Date | string | null;
      })
    | null
    | undefined,
): AdminSystemMessage | undefined {
  if (!row) return undefined;
  return {
    enabled: row.enabled,
    loggedInOnly: row.logged_in_only,
    severity: row.severity,
    title: row.title,
    text: row.text,
    startsAt: row.starts_at ? new Date(row.starts_at).toISOString() : null,
    endsAt: row.ends_at ? new Date(row.ends_at).toISOString() : null,
  };
}

/**
 * The operator's banner; one meant for signed-in users only is hidden from anonymous callers, and
 * one with a start or end time is shown only between them.
 */
export async function readSystemMessage(
  db: Db,
  isSignedIn: boolean,
  now = new Date(),
): Promise<SystemMessage> {
  return shownSystemMessage(await readStoredSystemMessage(db), isSignedIn, now);
}

/** The banner as readSystemMessage answers it, from the row a page's session lookup brought. */
export function systemMessageOfRow(
  row: SystemMessageJson | null,
  isSignedIn: boolean,
  now = new Date(),
): SystemMessage {
  return shownSystemMessage(storedMessageOf(row), isSignedIn, now);
}

function shownSystemMessage(
  stored: AdminSystemMessage | undefined,
  isSignedIn: boolean,
  now: Date,
): SystemMessage {
  if (!stored || (stored.loggedInOnly && !isSignedIn)) return none;
  const { startsAt, endsAt, ...message } = stored;
  if (startsAt && new Date(startsAt) > now) return none;
  if (endsAt && new Date(endsAt) <= now) return none;
  return message;
}
