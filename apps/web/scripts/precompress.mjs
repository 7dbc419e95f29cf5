// After `vite build`: writes .br and .gz beside every text asset in dist/, so the server can send
// compressed files (with @fastify/static's preCompressed) without compressing on each request.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// The asynchronous forms run on libuv's thread pool: every core compresses.
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const dist = new URL('../dist/', import.meta.url).pathname;
const compressible = /\.(js|css|svg|html|json|txt|map)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (compressible.test(name)) yield path;
  }
}

const jobs = [];
for (const path of files(dist)) {
  const body = readFileSync(path);
  if (body.length < 1024) continue;
  jobs.push(
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).then((data) =>
      writeFile(`${path}.br`, data),
    ),
    gz(body, { level: 9 }).then((data) => writeFile(`${path}.gz`, data)),
  );
}
await Promise.all(jobs);
console.log(`precompressed ${jobs.length / 2} files`);
