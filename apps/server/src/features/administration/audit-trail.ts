import { adminMessages } from '@pra/contracts';
import { AppError } from '../../platform/app-error';
import { recordAudit } from '../../identity/audit';
import type { Db } from '../../platform/db';
import type { Actor } from './actor';
import {
  countAuditEventsBefore,
  purgeAuditEvents,
  selectAuditEvents,
  type AuditCursor,
  type AuditFilter,
  type AuditRow,
} from '../../store/audit';
import { toView } from './audit-export';

/** Reading, exporting and purging the audit trail. */

export function encodeCursor(row: AuditRow): string {
  return Buffer.from(JSON.stringify([row.cursor_at, row.id])).toString('base64url');
}

export function decodeCursor(text: string | undefined): AuditCursor | null {
  if (!text) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof at === 'string' &&
      typeof id === 'string' &&
      /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:\d\d)?|Z)$/.test(at) &&
      /^[0-9a-f-]{36}$/.test(id)
    ) {
      return { at, id };
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw new AppError('badRequest', adminMessages.badCursor);
}

/** One page, newest first, and the cursor of the next (null on the last page). */
export async function auditPage(db: Db, filter: AuditFilter, cursorText: string | undefined, limit: number) {
  const rows = await selectAuditEvents(db, filter, decodeCursor(cursorText), limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { events: page.map(toView), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** The cutoff of the retention: events older than this many days may be purged. */
export function retentionCutoff(days: number, now = new Date()): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

/** Purges (or, on a dry run, counts) events older than the cutoff; the purge itself is audited. */
export async function purgeAudit(db: Db, actor: Actor, cutoff: Date, apply: boolean): Promise<number> {
  if (!apply) return countAuditEventsBefore(db, cutoff);
  const removed = await purgeAuditEvents(db, cutoff);
  await recordAudit(db, {
    action: 'audit.purge',
    outcome: 'success',
    actor,
    clientAddress: actor.clientAddress,
    details: { before: cutoff.toISOString(), removed },
  });
  return removed;
}
