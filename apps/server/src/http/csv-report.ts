import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { ReportName } from '@pra/contracts';
import { csvLine } from '@pra/contracts/csv';
import type { Db } from '../platform/db';
import { recordAudit } from '../identity/audit';
import { unavailableReason } from '../platform/db-errors';
import { ExportAbandoned, ExportStopped } from '../platform/export-workers';
import { chunked } from './text-chunks';
import { sendErrors } from './errors';
import { messages } from '../platform/app-error';
import type { Encoding } from '../platform/content-encoding';

/** Who downloads a report, for its `report.export` event. */
export interface ReportReader {
  id: string;
  username: string;
  clientAddress: string;
}

/** The reader of a signed-in request. */
export function readerOf(request: { account: { id: string; username: string }; ip: string }): ReportReader {
  return { id: request.account.id, username: request.account.username, clientAddress: request.ip };
}

export interface CsvReport {
  report: ReportName;
  /** The filters the file was made with (only those set), recorded in the audit event. */
  filters: Record<string, string | number | undefined>;
  fileName: string;
  header: readonly string[];
  /** The data rows, as cells, read in batches (never every row at once). */
  rows: AsyncIterable<string[]>;
}

/**
 * Sends a report as a CSV download, streamed: the header and the first batch are read before any
 * status is sent (a failing query answers 4xx/5xx, not a cut file), every cell neutralised
 * against spreadsheet formulas (contracts/csv.ts, the one neutralising function). Once the last
 * line is read, or the download is abandoned, `report.export` is recorded with the report, its
 * filters and the rows sent (GOVERNANCE.md §9.4).
 */
export async function sendCsvReport(db: Db, reader: ReportReader, reply: FastifyReply, csv: CsvReport) {
  return sendDownload(reply, csv.fileName, auditedLines(db, reader, csv));
}

/**
 * Sends `lines` as a CSV download in chunks of about 64 KiB (few writes, no more than one chunk
 * held), streamed with back-pressure. The first chunk is read before any status is sent: a
 * failing first query answers 4xx/5xx, not a cut file.
 */
export async function sendDownload(reply: FastifyReply, fileName: string, lines: AsyncIterable<string>) {
  return sendChunks(reply, fileName, chunked(lines));
}

/**
 * Sends chunks already made (by an export worker) as a CSV download, as above; `encoding` names
 * the compression the chunks already carry (the worker compressed them). A download that fails
 * once its status is sent is cut (the client sees an unfinished transfer) and logged.
 */
export async function sendChunks(
  reply: FastifyReply,
  fileName: string,
  chunks: AsyncGenerator<string | Buffer>,
  encoding: Encoding | null = null,
) {
  const first = await chunks.next().catch((error: unknown) => {
    if (error instanceof ExportAbandoned) return null;
    throw error;
  });
  // Its caller left while it waited for a worker: nobody to answer, nothing to log but the request.
  if (!first) return sendErrors(reply, 503, [messages.unavailable]);
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store');
  if (encoding) reply.header('content-encoding', encoding).header('vary', 'accept-encoding');
  return reply.send(Readable.from(logged(reply.log, fileName, prepend(first, chunks))));
}

/**
 * The chunks, with one warning when they end in an error: fastify's own line for a stream that
 * fails after its headers is off with request logging (app.ts), and an operator must learn that
 * a download was cut, and why, in words safe to log (a database code, or the stop), never pg's
 * message. A download the client abandons ends without an error, and without a line.
 */
async function* logged<T>(log: FastifyBaseLogger, fileName: string, chunks: AsyncGenerator<T>) {
  try {
    yield* chunks;
  } catch (error) {
    const reason =
      unavailableReason(error) ?? (error instanceof ExportStopped ? error.message : 'error while reading');
    log.warn({ file: fileName, reason }, 'download cut short');
    throw error;
  }
}

async function* auditedLines(db: Db, reader: ReportReader, csv: CsvReport): AsyncGenerator<string> {
  let rows = 0;
  let complete = false;
  try {
    yield csvLine([...csv.header]);
    for await (const cells of csv.rows) {
      yield csvLine(cells);
      rows += 1;
    }
    complete = true;
  } finally {
    const filters = Object.fromEntries(
      Object.entries(csv.filters).filter(([, v]) => v !== undefined && v !== ''),
    );
    await recordAudit(db, {
      action: 'report.export',
      outcome: 'success',
      actor: { id: reader.id, username: reader.username },
      clientAddress: reader.clientAddress,
      details: { report: csv.report, filters: JSON.stringify(filters), rows, complete },
    });
  }
}

/** The chunks of a download whose first one was already taken. */
async function* prepend<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  if (!first.done) yield first.value;
  yield* rest;
}

/** Reads every row of a list in batches after a cursor: `load(after, limit)` gives the next ones. */
export async function* inBatches<Row>(
  load: (after: Row | null, limit: number) => Promise<Row[]>,
  limit = 1000,
): AsyncGenerator<Row> {
  let after: Row | null = null;
  for (;;) {
    const rows = await load(after, limit);
    yield* rows;
    if (rows.length < limit) return;
    after = rows.at(-1) ?? null;
  }
}

/** Each row of `rows` as its cells. */
export async function* cellsOf<Row>(rows: AsyncIterable<Row>, cells: (row: Row) => string[]) {
  for await (const row of rows) yield cells(row);
}
