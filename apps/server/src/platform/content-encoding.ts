import { constants } from 'node:zlib';

// The encodings the portal compresses its answers with, and how: one definition for the JSON
// answers (http/compression.ts) and the audit export's worker (export-worker.ts), which imports
// this and not the HTTP layer.

export type Encoding = 'br' | 'gzip';

/** Brotli at quality 4 in text mode: it costs about what gzip does and is smaller. */
export const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 4,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
};

/**
 * Brotli for a stream of unknown length (the audit export): the same, in a 256 KiB window instead
 * of the default 4 MiB. The default's buffers, allocated in an export's worker thread, grew the
 * process by 137–145 MB per 2 M-event export, kept after the worker ended (the next export grew it
 * as much again); in this window by what gzip costs, and the download is no larger, since quality 4
 * finds its matches close by (bench/RESULTS.md, 2026-11-29).
 */
export const STREAM_BROTLI_PARAMS = {
  ...BROTLI_PARAMS,
  [constants.BROTLI_PARAM_LGWIN]: 18,
};

export const GZIP_LEVEL = 6;

/** The encoding to answer with: brotli, else gzip, as Accept-Encoding allows; none otherwise. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weightOf('br') > 0 && weightOf('br') >= weightOf('gzip')) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return null;
}
