import type { AuditEventView } from '@pra/contracts';
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
import { csvLine } from './csv';

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

export function toView(row: AuditRow): AuditEventView {
  return {
    id: row.id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    action: row.action,
    outcome: row.outcome,
    actor: row.actor_username,
    target: row.target_username,
    organization: row.organization,
    clientAddress: row.client_address,
    details: row.details,
  };
}

/** One page, newest first, and the cursor of the next (null on the last page). */
export async function auditPage(db: Db, filter: AuditFilter, cursorText: string | undefined, limit: number) {
  const rows = await selectAuditEvents(db, filter, decodeCursor(cursorText), limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { events: page.map(toView), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** Every matching event, newest first, read in keyset batches: memory stays flat at any size. */
export async function* auditEvents(
  db: Db,
  filter: AuditFilter,
  batchSize = 1000,
): AsyncGenerator<AuditEventView> {
  let cursor: AuditCursor | null = null;
  for (;;) {
    const rows = await selectAuditEvents(db, filter, cursor, batchSize);
    for (const row of rows) yield toView(row);
    const last = rows.at(-1);
    if (rows.length < batchSize || !last) return;
    cursor = { at: last.cursor_at, id: last.id };
  }
}

export const auditCsvHeader = [
  'occurredAt',
  'action',
  'outcome',
  'actor',
  'target',
  'organization',
  'clientAddress',
  'details',
];

export function auditCsvLine(event: AuditEventView): string {
  return csvLine([
    event.occurredAt,
    event.action,
    event.outcome,
    event.actor,
    event.target,
    event.organization ?? '',
    event.clientAddress,
    JSON.stringify(event.details),
  ]);
}

/** The export as lines of text (CSV with a header, or JSON lines), produced as they are read. */
export async function* auditExport(
  db: Db,
  filter: AuditFilter,
  format: 'csv' | 'jsonl',
): AsyncGenerator<string> {
  const line = (event: AuditEventView) =>
    format === 'csv' ? auditCsvLine(event) : `${JSON.stringify(event)}\n`;
  // The first chunk comes after the first query: a caller that awaits it before sending anything
  // answers that query's failure with a status (400, 503), not with a connection cut mid-file.
  const events = auditEvents(db, filter);
  const first = await events.next();
  yield (format === 'csv' ? csvLine(auditCsvHeader) : '') + (first.done ? '' : line(first.value));
  for await (const event of events) yield line(event);
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
