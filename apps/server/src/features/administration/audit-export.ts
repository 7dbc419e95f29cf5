// The audit trail as a file: every matching event in keyset batches, as CSV or JSON lines. Apart
// from audit-trail.ts (paging, purging, the contracts' messages) so that an export worker
// (export-worker.ts) loads only this, the store's query and the CSV writer.
import type { AuditEventView } from '@pra/contracts';
import type { Db } from '../../platform/pg-database';
import { selectAuditEvents, type AuditCursor, type AuditFilter, type AuditRow } from '../../store/audit';
import { csvLine } from './csv';

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

/**
 * A batch's bounds. The first reads BATCH_FIRST events; each next one as many as would come to
 * about BATCH_TEXT characters at the width of the one before, at most BATCH_ROWS. A batch is the
 * export's live data: bounded by its text as well as its count, it stays about a MB however wide
 * the events' details are, which lets an export worker run in a small heap
 * (platform/export-workers.ts).
 */
const BATCH_FIRST = 100;
export const BATCH_ROWS = 1000;
export const BATCH_TEXT = 1_000_000;

/** The next batch's size after one of `rows` events whose lines came to `text` characters. */
export function nextBatchRows(rows: number, text: number): number {
  if (rows === 0 || text <= 0) return BATCH_ROWS;
  return Math.max(1, Math.min(BATCH_ROWS, Math.floor((BATCH_TEXT * rows) / text)));
}

/**
 * Every matching event as `line` writes it, newest first, read in keyset batches (see
 * BATCH_ROWS): memory stays flat at any size and any width.
 */
export async function* auditLines(
  db: Db,
  filter: AuditFilter,
  line: (event: AuditEventView) => string,
): AsyncGenerator<string> {
  let cursor: AuditCursor | null = null;
  let size = BATCH_FIRST;
  for (;;) {
    const rows = await selectAuditEvents(db, filter, cursor, size);
    let text = 0;
    for (const row of rows) {
      const written = line(toView(row));
      text += written.length;
      yield written;
    }
    const last = rows.at(-1);
    if (rows.length < size || !last) return;
    cursor = { at: last.cursor_at, id: last.id };
    size = nextBatchRows(rows.length, text);
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
  const lines = auditLines(db, filter, line);
  const first = await lines.next();
  yield (format === 'csv' ? csvLine(auditCsvHeader) : '') + (first.done ? '' : first.value);
  yield* lines;
}
