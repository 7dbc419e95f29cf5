import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
import type { BuildOptions } from 'esbuild';
import type { DatabaseTimeouts } from './db';
import { AppError, messages, type ErrorCode } from './app-error';
import type { Encoding } from './content-encoding';

/**
 * An export to read: which one, its filters (as the route checked them), its format and the
 * encoding the download goes out with (the worker compresses it: http/compression.ts's choice).
 */
export interface ExportRequest {
  kind: 'audit';
  filter: Readonly<Record<string, unknown>>;
  format: 'csv' | 'jsonl';
  encoding?: Encoding | null;
}

/** What an export worker is given (structured-cloned into it). */
export interface ExportTask {
  url: string;
  timeouts: DatabaseTimeouts;
  request: ExportRequest;
}

/** What an export worker says: a chunk (text, or compressed bytes), the end, or why it stopped. */
export type FromExportWorker =
  | { chunk: string | Uint8Array }
  | { done: true }
  | { error: { message: string; code: string | undefined; app: boolean } };

/** Exports read at once; a further one waits for a free slot (each holds a connection). */
export const EXPORT_WORKERS = 2;

/**
 * How exports wait for a worker. The caller sees no headers while its export waits, and the proxy
 * in front gives the download 300 s to begin (deploy/nginx/pra-portal.conf), so the wait is
 * bounded well inside that and the queue is short: an export past either is answered 503 with
 * Retry-After, which the browser shows as a failed download, instead of a proxy's 504 minutes later
 * or a worker started for a caller who gave up long ago.
 */
export interface ExportQueueLimits {
  /** Exports that may wait for a worker at once; one more is turned away at once. */
  waiting: number;
  /** How long one may wait for a worker (ms) before it is turned away. */
  waitMs: number;
}

export const EXPORT_QUEUE: ExportQueueLimits = { waiting: 8, waitMs: 60_000 };
/** Retry-After of an export turned away for want of a worker: about one export's length. */
export const EXPORT_RETRY_AFTER_SECONDS = 60;
/** Chunks of about 64 KiB a worker may have sent ahead of the download. */
const AHEAD = 2;
/**
 * The worker's heap. Its live data is a batch of events, about 1 MB of text however wide they are
 * (audit-export.ts), and a chunk; V8 lets garbage grow to a few times the live heap before a full
 * collection, so a small limit keeps the whole export's memory near that, whatever its length (the
 * portal's own heap, some 45 MB live, let an in-process export grow the process by 95–175 MB;
 * 48 MB here let the first 2 M-event export grow it by 49 MB, 20 MB by 39: bench/RESULTS.md).
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 20, maxYoungGenerationSizeMb: 4 };

/**
 * The worker's module: the built one beside the bundle; from source (tsx, vitest), the same entry
 * bundled once (a file named by its content) as the build bundles it. A worker started under tsx
 * compiled the sources again in its own thread, about a second per export: the hostile-input
 * test's PostgreSQL half, which exports with every hostile filter, took 52 s instead of 22.
 */
function workerModule(): Promise<URL> {
  if (!import.meta.url.endsWith('.ts'))
    return Promise.resolve(new URL('./export-worker.js', import.meta.url));
  sourceBundle ??= bundleFromSource();
  return sourceBundle;
}

let sourceBundle: Promise<URL> | undefined;

async function bundleFromSource(): Promise<URL> {
  const buildModule = new URL('../../build.mjs', import.meta.url).href;
  const { bundleOptions } = (await import(buildModule)) as { bundleOptions: BuildOptions };
  const { build } = await import('esbuild');
  const { outputFiles } = await build({
    ...bundleOptions,
    entryPoints: [fileURLToPath(new URL('../export-worker.ts', import.meta.url))],
    write: false,
    outfile: 'export-worker.mjs',
  });
  const code = outputFiles[0]!.contents;
  // Inside the server's folder, so that the packages left out of the bundle resolve; named by its
  // content, so every test process and run of the same sources shares one file.
  const folder = fileURLToPath(new URL('../../node_modules/.cache/pra-export-worker/', import.meta.url));
  const file = join(folder, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    const partial = `${file}.${process.pid}-${threadId}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return pathToFileURL(file);
}

/**
 * Exports on PostgreSQL (today the audit trail's), each in a worker thread of its own (export-worker.ts) with its own
 * connection and a small heap: the export's garbage is collected there, at the size of the
 * worker's live data, and its CPU work leaves the event loop that answers everyone else. At most
 * EXPORT_WORKERS at once. The embedded database lives on the main thread, so standalone exports
 * in-process instead (features/administration/routes.ts).
 */
export function createExportWorkers(
  url: string,
  timeouts: DatabaseTimeouts,
  limits: ExportQueueLimits = EXPORT_QUEUE,
) {
  const running = new Set<Worker>();
  const waiting: Array<() => void> = [];
  let closed = false;
  /** Slots held, a worker started or about to be: a freed slot passes straight to a waiter. */
  let held = 0;
  const turnedAway = () =>
    new AppError('serviceUnavailable', messages.unavailable, EXPORT_RETRY_AFTER_SECONDS);
  /**
   * A slot, now or once one is passed on. Turned away (503) when `limits.waiting` already wait, or
   * after `limits.waitMs`; given up when `signal` aborts (the caller left): either way it leaves
   * the queue, so no worker ever starts for it.
   */
  const acquire = async (signal?: AbortSignal) => {
    if (held < EXPORT_WORKERS) return void (held += 1);
    if (waiting.length >= limits.waiting) throw turnedAway();
    if (signal?.aborted) throw new ExportAbandoned();
    await new Promise<void>((resolve, reject) => {
      const leave = (error: Error) => {
        const at = waiting.indexOf(granted);
        if (at >= 0) waiting.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        reject(error);
      };
      const aborted = () => leave(new ExportAbandoned());
      const granted = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        resolve();
      };
      const timer = setTimeout(() => leave(turnedAway()), limits.waitMs);
      signal?.addEventListener('abort', aborted, { once: true });
      waiting.push(granted);
    });
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else held -= 1;
  };

  /** The export's chunks; `signal` aborts while it waits for a worker (its caller left). */
  async function* run(request: ExportRequest, signal?: AbortSignal): AsyncGenerator<string | Buffer> {
    const module = await workerModule();
    await acquire(signal);
    if (closed) {
      release();
      throw new AppError('serviceUnavailable', messages.unavailable);
    }
    const task: ExportTask = { url, timeouts, request };
    const worker = new Worker(module, { workerData: task, resourceLimits: RESOURCE_LIMITS });
    running.add(worker);
    const inbox: Array<FromExportWorker | { exit: number } | { failed: Error }> = [];
    let wake: (() => void) | null = null;
    const deliver = (message: (typeof inbox)[number]) => {
      inbox.push(message);
      wake?.();
    };
    worker.on('message', (message: FromExportWorker) => deliver(message));
    worker.on('error', (error) => deliver({ failed: error }));
    worker.on('exit', (code) => deliver({ exit: code }));
    try {
      for (let i = 0; i < AHEAD; i++) worker.postMessage('more');
      for (;;) {
        while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const message = inbox.shift()!;
        if ('chunk' in message) {
          worker.postMessage('more');
          const { chunk } = message;
          yield typeof chunk === 'string'
            ? chunk
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        } else if ('done' in message) {
          return;
        } else if ('error' in message) {
          throw rebuilt(message.error);
        } else if ('failed' in message) {
          throw message.failed;
        } else if (closed) {
          throw new ExportStopped();
        } else {
          throw new Error(`the export's worker stopped before the end (exit code ${message.exit})`);
        }
      }
    } finally {
      running.delete(worker);
      await worker.terminate();
      release();
    }
  }

  return {
    run,
    /** Exports waiting for a worker now. */
    waiting: () => waiting.length,
    /** Stops every running export (the portal is stopping). */
    async close(): Promise<void> {
      closed = true;
      for (const resolve of waiting.splice(0)) resolve();
      await Promise.all([...running].map((worker) => worker.terminate()));
    },
  };
}

export type ExportWorkers = ReturnType<typeof createExportWorkers>;

/** An export ended because the portal is stopping (close()). */
export class ExportStopped extends Error {
  constructor() {
    super('the portal is stopping');
  }
}

/** An export given up while it waited for a worker: its caller left. */
export class ExportAbandoned extends Error {
  constructor() {
    super('the caller left while the export waited for a worker');
  }
}

/** The worker's error as the main thread's error handler knows it: same code, same kind. */
function rebuilt(error: { message: string; code: string | undefined; app: boolean }): Error {
  if (error.app && error.code) return new AppError(error.code as ErrorCode, error.message);
  return Object.assign(new Error(error.message), error.code === undefined ? {} : { code: error.code });
}
