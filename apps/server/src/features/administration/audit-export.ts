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
