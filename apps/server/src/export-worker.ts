// The body of an export worker (platform/export-workers.ts): a worker thread that reads one export
// from PostgreSQL on a connection of its own and hands it over in chunks of bytes, one more each
// time the main thread asks for one. Its own heap, limited, collects the export's garbage
// (millions of short-lived rows) at the size of its own small live data, not the portal's.
// It hands over chunks of text, which the main thread writes to the download's socket.
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from './platform/app-error';
import { openPostgres } from './platform/pg-database';
import { auditExport } from './features/administration/audit-export';
import { chunked } from './http/text-chunks';
import type { ExportTask, FromExportWorker } from './platform/export-workers';

const port = parentPort;
if (!port) throw new Error('export-worker.ts runs as a worker thread (platform/export-workers.ts)');
const task = workerData as ExportTask;
const send = (message: FromExportWorker) => port.postMessage(message);

/** Chunks the main thread has asked for and not received yet. */
let credit = 0;
let wake: (() => void) | null = null;
port.on('message', (message: unknown) => {
  if (message !== 'more') return;
  credit += 1;
  wake?.();
});

const database = openPostgres(task.url, {
  poolSize: 1,
  applicationName: 'pra-portal-export',
  timeouts: task.timeouts,
});
try {
  const { filter, format } = task.request;
  for await (const text of chunked(auditExport(database.db, filter, format))) {
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit -= 1;
    // As text: copied into the main thread's heap, where it dies young once written to the socket
    // (which copies it). Bytes would be memory outside that heap, freed only at its next full
    // collection, which the main thread, allocating little, reaches late: 60–90 MB held.
    send({ chunk: text });
  }
  send({ done: true });
} catch (error) {
  // What the main thread's error handler needs to answer as it would have (a 503 for an
  // unavailable database, an AppError's status): the code, the kind and pg's message.
  send({
    error: {
      message: error instanceof Error ? error.message : String(error),
      code:
        (error as { code?: unknown }).code === undefined
          ? undefined
          : String((error as { code: unknown }).code),
      app: error instanceof AppError,
    },
  });
} finally {
  port.close();
  await database.close();
}
