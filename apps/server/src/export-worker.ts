// The body of an export worker (platform/export-workers.ts): a worker thread that reads one export
// from PostgreSQL on a connection of its own and hands it over in chunks of bytes, one more each
// time the main thread asks for one. Its own heap, limited, collects the export's garbage
// (millions of short-lived rows) at the size of its own small live data, not the portal's.
// It hands over chunks of text, or of the compressed download when the caller accepts brotli or
// gzip, which the main thread writes to the download's socket.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { createBrotliCompress, createGzip } from 'node:zlib';
import { AppError } from './platform/app-error';
import { openPostgres } from './platform/pg-database';
import { auditExport } from './features/administration/audit-export';
import { GZIP_LEVEL, STREAM_BROTLI_PARAMS, type Encoding } from './platform/content-encoding';
import { chunked } from './http/text-chunks';
import type { ExportTask, FromExportWorker } from './platform/export-workers';

const port = parentPort;
if (!port) throw new Error('export-worker.ts runs as a worker thread (platform/export-workers.ts)');
const task = workerData as ExportTask;
const send = (message: FromExportWorker) => port.postMessage(message);
/** Moves bytes (not copies) to the main thread, in a buffer of their own. */
const moveBytes = (bytes: Uint8Array<ArrayBuffer>) =>
  port.postMessage({ chunk: bytes } satisfies FromExportWorker, [bytes.buffer]);

/** Chunks the main thread has asked for and not received yet. */
let credit = 0;
let wake: (() => void) | null = null;
port.on('message', (message: unknown) => {
  if (message !== 'more') return;
  credit += 1;
  wake?.();
});

const database = await openPostgres(task.url, {
  poolSize: 1,
  applicationName: 'pra-portal-export',
  timeouts: task.timeouts,
});

/** Sends each piece once the main thread has asked for one (back-pressure across the threads). */
async function handOver(pieces: AsyncIterable<string | Buffer>): Promise<void> {
  for await (const piece of pieces) {
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit -= 1;
    if (typeof piece === 'string') {
      // As text: copied into the main thread's heap, where it dies young once written to the socket
      // (which copies it). Bytes would be memory outside that heap, freed only at its next full
      // collection, which the main thread, allocating little, reaches late: 60–90 MB held.
      send({ chunk: piece });
    } else {
      // Compressed, a tenth of the text: moved (not copied) into the main thread, in a buffer of
      // its own (zlib's output may be a view of a larger one, which a copy would carry whole).
      moveBytes(new Uint8Array(piece));
    }
  }
}

/**
 * The download's compression, done here rather than on the main thread: the main thread then
 * handles a tenth of the bytes (its young heap stayed near its idle size in bench:scale's export),
 * and the compressing leaves the event loop. gzip's level is the JSON answers' own; brotli's quality
 * too, in a smaller window (content-encoding.ts: STREAM_BROTLI_PARAMS).
 */
function compressor(encoding: Encoding | null | undefined) {
  if (encoding === 'br') return createBrotliCompress({ chunkSize: 65_536, params: STREAM_BROTLI_PARAMS });
  if (encoding === 'gzip') return createGzip({ level: GZIP_LEVEL, chunkSize: 65_536 });
  return null;
}

try {
  const { filter, format, encoding } = task.request;
  const text = Readable.from(chunked(auditExport(database.db, filter, format)));
  const compress = compressor(encoding);
  if (compress) await pipeline(text, compress, handOver);
  else await pipeline(text, handOver);
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
