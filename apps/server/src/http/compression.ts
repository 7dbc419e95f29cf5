import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { api } from '@pra/contracts/paths';
import type { FastifyInstance } from 'fastify';
import { BROTLI_PARAMS, chooseEncoding, GZIP_LEVEL } from '../platform/content-encoding';
import { isApiRequest, routedPath } from './request-path';

/**
 * Compressed API answers: a JSON answer of a GET under /api of 1 kB or more goes out with brotli
 * or gzip when the caller accepts it (the static files are compressed at build time instead).
 *
 * - Only whole answers here. The streamed audit CSV export (PostgreSQL) is compressed by its
 *   worker thread with the encoding chosen below (export-worker.ts), so it keeps streaming with
 *   back-pressure and the main thread handles a tenth of its bytes; in standalone it goes as text.
 *   It holds no secret (the audit trail records none), so BREACH has nothing to guess there.
 * - Compressed on libuv's thread pool (the async zlib calls), not on the event loop, with the
 *   settings of platform/content-encoding.ts.
 * - BREACH (guessing a secret from the size of compressed answers that also reflect the
 *   attacker's input) needs a secret and reflected input in one compressed answer that another
 *   site can make the victim's browser fetch. The one answer that is a secret, the CSRF token,
 *   is never compressed; a state-changing call (which may reflect its body) is not a GET; and the
 *   session cookie is SameSite=Lax, so another site's requests carry no session to the lists.
 */
export const COMPRESS_MIN_BYTES = 1024;

const neverCompressed = new Set<string>([api.csrf]);

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function registerApiCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || !isApiRequest(request) || neverCompressed.has(routedPath(request))) {
      return payload;
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.getHeader('content-encoding')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_MIN_BYTES) return payload;
    const vary = reply.getHeader('vary');
    if (
      !String(vary ?? '')
        .toLowerCase()
        .includes('accept-encoding')
    ) {
      reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
    }
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const compressed =
      encoding === 'br'
        ? await brotli(payload, {
            params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: size },
          })
        : await gzipAsync(payload, { level: GZIP_LEVEL });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}
