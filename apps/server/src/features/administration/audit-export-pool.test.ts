import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { adminApi } from '@pra/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestApp, type TestClient } from '../../../test/support/test-app';
import { isDatabaseUnavailable } from '../../platform/db-errors';
import {
  createExportWorkers,
  EXPORT_QUEUE,
  EXPORT_RETRY_AFTER_SECONDS,
  EXPORT_WORKERS,
  ExportAbandoned,
  ExportStopped,
  type ExportQueueLimits,
} from '../../platform/export-workers';
import { AppError, messages } from '../../platform/app-error';
import { databaseTimeouts } from '../../runtime';
import { auditExport } from './audit-export';

// Issue 31: on PostgreSQL a long audit export runs in a worker thread with a connection and a heap
// of its own (platform/export-workers.ts), so that it never holds a connection of the requests'
// pool and its garbage is collected at the worker's size. PGlite exports in-process (one
// connection, on the main thread).

describe.skipIf(!process.env.TEST_DATABASE_URL)('the audit export in a worker thread', () => {
  let t: TestApp;
  let admin: TestClient;
  const requests: string[] = [];
  const longWork: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      'postgres',
      {},
      { onStatement: (text) => requests.push(text), onLongWorkStatement: (text) => longWork.push(text) },
    );
    await createAccount(t, { username: 'exportadmin', type: 'employee', isAdmin: true });
    admin = await signInAs(t, 'exportadmin');
    // About 75 bytes a line: some 750 kB, a dozen chunks of 64 KiB (a worker sends at most three
    // ahead of the download, so it is still reading when a test looks).
    await sql`
      insert into audit_events (action, outcome, details)
      select 'test.export', 'success', jsonb_build_object('n', n) from generate_series(1, 10000) n`.execute(
      t.ctx.db,
    );
  });
  afterAll(async () => t?.close());

  const testExport = { kind: 'audit', filter: { action: 'test.export' }, format: 'csv' } as const;
  const workers = (limits?: ExportQueueLimits) =>
    createExportWorkers(t.databaseUrl!, databaseTimeouts(t.ctx.config), limits);
  const exportConnections = async () =>
    (
      await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name = 'pra-portal-export'`.execute(t.ctx.db)
    ).rows[0]!.n;
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await check()).toBe(true);
  };
  const inProcess = async () => {
    let text = '';
    for await (const line of auditExport(t.ctx.db, { action: 'test.export' }, 'csv')) text += line;
    return text;
  };

  it('answers the download over HTTP, reading nothing on the requests’ pool nor long work’s', async () => {
    const expected = await inProcess();
    requests.length = 0;
    longWork.length = 0;
    const csv = await admin.get(`${adminApi.auditExport}?action=test.export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(10001);
    expect(csv.body).toBe(expected);
    const auditReads = (list: string[]) => list.filter((text) => /from "?audit_events"?/.test(text));
    expect(auditReads(requests)).toEqual([]);
    expect(auditReads(longWork)).toEqual([]);
  });

  it('compresses the download in its worker when the caller accepts it: brotli, else gzip, else none', async () => {
    const expected = await inProcess();
    const path = `${adminApi.auditExport}?action=test.export`;
    const cases = [
      { accept: 'gzip, deflate, br', encoding: 'br', decode: brotliDecompressSync },
      { accept: 'gzip;q=1, br;q=0.5', encoding: 'gzip', decode: gunzipSync },
      { accept: 'gzip', encoding: 'gzip', decode: gunzipSync },
    ] as const;
    for (const { accept, encoding, decode } of cases) {
      const csv = await admin.get(path, { 'accept-encoding': accept });
      expect(csv.statusCode, accept).toBe(200);
      expect(csv.headers['content-encoding'], accept).toBe(encoding);
      expect(String(csv.headers.vary), accept).toMatch(/accept-encoding/i);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      // About a tenth of the text: what the main thread hands on, and what goes over the wire.
      expect(csv.rawPayload.length, accept).toBeLessThan(expected.length / 5);
      expect(decode(csv.rawPayload).toString('utf8'), accept).toBe(expected);
    }
    for (const accept of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const csv = await admin.get(path, { 'accept-encoding': accept });
      expect(csv.headers['content-encoding'], accept).toBeUndefined();
      expect(csv.body, accept).toBe(expected);
    }
  });

  it('hands over compressed bytes that decompress to the same file', async () => {
    const exports = workers();
    try {
      const pieces: Buffer[] = [];
      for await (const piece of exports.run({ ...testExport, encoding: 'gzip' })) {
        expect(Buffer.isBuffer(piece)).toBe(true);
        pieces.push(piece as Buffer);
      }
      expect(pieces.length).toBeGreaterThan(1);
      expect(gunzipSync(Buffer.concat(pieces)).toString('utf8')).toBe(await inProcess());
    } finally {
      await exports.close();
    }
    await eventually(async () => (await exportConnections()) === 0);
  });

  it('reads on a connection of its own while it runs, and closes it at the end', async () => {
    const exports = workers();
    try {
      const chunks = exports.run(testExport);
      let text = (await chunks.next()).value as string;
      expect(await exportConnections()).toBe(1);
      for await (const chunk of chunks) text += String(chunk);
      expect(text).toBe(await inProcess());
      await eventually(async () => (await exportConnections()) === 0);
    } finally {
      await exports.close();
    }
  });

  it('an abandoned download stops its worker and frees its connection', async () => {
    const exports = workers();
    try {
      const chunks = exports.run(testExport);
      await chunks.next();
      await chunks.return(undefined);
      await eventually(async () => (await exportConnections()) === 0);
    } finally {
      await exports.close();
    }
  });

  it(`runs at most ${EXPORT_WORKERS} at once; the next starts when one ends`, async () => {
    const exports = workers();
    try {
      const running = Array.from({ length: EXPORT_WORKERS }, () => exports.run(testExport));
      for (const chunks of running) await chunks.next();
      const next = exports.run(testExport);
      let started = false;
      const first = next.next().then((result) => ((started = true), result));
      await new Promise((r) => setTimeout(r, 500));
      expect(started).toBe(false);
      expect(await exportConnections()).toBe(EXPORT_WORKERS);
      await running[0]!.return(undefined);
      expect((await first).done).toBe(false);
      for (const chunks of [...running.slice(1), next]) await chunks.return(undefined);
    } finally {
      await exports.close();
    }
  });

  it('an export arriving while an ending one’s worker stops waits behind the one already waiting', async () => {
    const exports = workers();
    try {
      const running = Array.from({ length: EXPORT_WORKERS }, () => exports.run(testExport));
      for (const chunks of running) await chunks.next();
      const waiter = exports.run(testExport);
      const waiterFirst = waiter.next();
      // The first ends: its slot is freed only once its worker has stopped, which takes a while;
      // an export that arrives meanwhile must not take a slot beside the waiter's.
      const ending = running[0]!.return(undefined);
      // A turn of the event loop: the ending export's worker is being stopped (its finally awaits
      // the termination, which takes milliseconds).
      await new Promise((resolve) => setImmediate(resolve));
      const late = exports.run(testExport);
      let lateStarted = false;
      const lateFirst = late.next().then((result) => ((lateStarted = true), result));
      await ending;
      expect((await waiterFirst).done).toBe(false);
      await new Promise((r) => setTimeout(r, 500));
      expect(lateStarted).toBe(false);
      expect(await exportConnections()).toBe(EXPORT_WORKERS);
      await running[1]!.return(undefined);
      expect((await lateFirst).done).toBe(false);
      for (const chunks of [waiter, late]) await chunks.return(undefined);
    } finally {
      await exports.close();
    }
  });

  /** Every worker busy: EXPORT_WORKERS exports started, each with its first chunk read. */
  const occupy = async (exports: ReturnType<typeof workers>) => {
    const running = Array.from({ length: EXPORT_WORKERS }, () => exports.run(testExport));
    for (const chunks of running) await chunks.next();
    return running;
  };
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );
  const turnedAway = (error: unknown) => {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(503);
    expect((error as AppError).retryAfterSeconds).toBe(EXPORT_RETRY_AFTER_SECONDS);
  };

  /** Runs `body` with workers of `limits`, then closes them; every export connection is gone after. */
  const withWorkers = async (
    limits: ExportQueueLimits,
    body: (exports: ReturnType<typeof workers>) => Promise<void>,
  ) => {
    const exports = workers(limits);
    try {
      await body(exports);
    } finally {
      await exports.close();
    }
    await eventually(async () => (await exportConnections()) === 0);
  };

  it('turns an export away at once (503, Retry-After) when the queue for a worker is full', async () => {
    await withWorkers({ waiting: 2, waitMs: 60_000 }, async (exports) => {
      const running = await occupy(exports);
      const queued = [exports.run(testExport), exports.run(testExport)];
      const queuedFirst = queued.map((chunks) => chunks.next());
      const started = performance.now();
      turnedAway(await failureOf(exports.run(testExport).next()));
      expect(performance.now() - started).toBeLessThan(1_000);
      // The queue itself is untouched: both waiting exports start as the running ones end.
      for (const chunks of running) await chunks.return(undefined);
      for (const first of queuedFirst) expect((await first).done).toBe(false);
      for (const chunks of queued) await chunks.return(undefined);
    });
  });

  it('turns away (503, Retry-After) an export that waited past the bound, and starts no worker for it', async () => {
    await withWorkers({ waiting: 8, waitMs: 300 }, async (exports) => {
      const running = await occupy(exports);
      const started = performance.now();
      turnedAway(await failureOf(exports.run(testExport).next()));
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      // Its place is gone: an ending export frees its slot, which nobody takes.
      await running[0]!.return(undefined);
      await eventually(async () => (await exportConnections()) === EXPORT_WORKERS - 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(await exportConnections()).toBe(EXPORT_WORKERS - 1);
      // And the next export takes the free slot at once.
      const next = exports.run(testExport);
      expect((await next.next()).done).toBe(false);
      for (const chunks of [...running.slice(1), next]) await chunks.return(undefined);
    });
  });

  it('an export whose caller leaves while it waits leaves the queue; the one behind it moves up', async () => {
    await withWorkers({ waiting: 8, waitMs: 60_000 }, async (exports) => {
      const running = await occupy(exports);
      const left = new AbortController();
      const abandoned = failureOf(exports.run(testExport, left.signal).next());
      const behind = exports.run(testExport);
      const behindFirst = behind.next();
      left.abort();
      expect(await abandoned).toBeInstanceOf(ExportAbandoned);
      // A caller gone before it even queued is not queued either.
      expect(await failureOf(exports.run(testExport, left.signal).next())).toBeInstanceOf(ExportAbandoned);
      await running[0]!.return(undefined);
      expect((await behindFirst).done).toBe(false);
      expect(await exportConnections()).toBe(EXPORT_WORKERS);
      // One worker is free once the second running export ends: the abandoned one took none.
      await running[1]!.return(undefined);
      await eventually(async () => (await exportConnections()) === 1);
      await behind.return(undefined);
    });
  });

  it(`over HTTP, an export past a full queue is answered 503 with Retry-After`, async () => {
    const exports = t.ctx.exportWorkers!;
    const running = await occupy(exports);
    const queued = Array.from({ length: EXPORT_QUEUE.waiting }, () => exports.run(testExport));
    const queuedFirst = queued.map((chunks) => chunks.next());
    try {
      const answer = await admin.get(`${adminApi.auditExport}?action=test.export`);
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe(String(EXPORT_RETRY_AFTER_SECONDS));
      expect(answer.json()).toEqual({ errors: [messages.unavailable] });
    } finally {
      // Each waiting export starts as one ends: ended in turn, not all awaited first.
      for (const chunks of running) await chunks.return(undefined);
      for (const [i, chunks] of queued.entries()) {
        await queuedFirst[i];
        await chunks.return(undefined);
      }
    }
    await eventually(async () => (await exportConnections()) === 0);
  });

  it('over HTTP, an export whose caller hangs up while it waits leaves the queue and starts no worker', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const exports = t.ctx.exportWorkers!;
    const running = await occupy(exports);
    try {
      const request = http.get(`${address}${adminApi.auditExport}?action=test.export`, {
        headers: { cookie: admin.cookieHeader },
      });
      request.on('error', () => {});
      await eventually(async () => exports.waiting() === 1);
      request.destroy();
      await eventually(async () => exports.waiting() === 0);
      // The slot an ending export frees stays free: no worker starts for the caller who left.
      await running[0]!.return(undefined);
      await eventually(async () => (await exportConnections()) === EXPORT_WORKERS - 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(await exportConnections()).toBe(EXPORT_WORKERS - 1);
    } finally {
      for (const chunks of running) await chunks.return(undefined);
    }
    await eventually(async () => (await exportConnections()) === 0);
  });

  it('stops every export when closed, and refuses new ones', async () => {
    const exports = workers();
    const chunks = exports.run(testExport);
    await chunks.next();
    await exports.close();
    await expect(
      (async () => {
        for await (const chunk of chunks) void chunk;
      })(),
    ).rejects.toBeInstanceOf(ExportStopped);
    await expect(exports.run({ ...testExport, filter: {} }).next()).rejects.toBeInstanceOf(AppError);
    await eventually(async () => (await exportConnections()) === 0);
  });

  it('exports events far wider than the trail holds within the worker’s small heap', async () => {
    // The worker's heap is held small (platform/export-workers.ts) and a batch of rows is its live
    // data. The widest details the portal writes are a few hundred characters; here 2,000 events
    // carry 8,000 characters each, astral ones among them: read 1,000 at a time, a batch ran the
    // worker out of memory.
    await sql`
      insert into audit_events (action, outcome, details)
      select 'test.wide', 'success', jsonb_build_object('n', n, 'text', repeat('wide 😀 text ', 615))
      from generate_series(1, 2000) n`.execute(t.ctx.db);
    const exports = workers();
    try {
      const pieces: Buffer[] = [];
      const wide = { ...testExport, filter: { action: 'test.wide' }, encoding: 'br' } as const;
      for await (const piece of exports.run(wide)) pieces.push(piece as Buffer);
      const text = brotliDecompressSync(Buffer.concat(pieces)).toString('utf8');
      expect(text.trim().split('\n')).toHaveLength(2001);
      expect(text).toContain('wide 😀 text');
    } finally {
      await exports.close();
    }
  });

  it('a database it cannot reach is the error the request would have had: unavailable (503)', async () => {
    const url = new URL(t.databaseUrl!);
    url.port = '1';
    const exports = createExportWorkers(url.toString(), databaseTimeouts(t.ctx.config));
    try {
      // Compressed or not, the error comes before any chunk: the route answers it, not a cut file.
      for (const encoding of [null, 'gzip', 'br'] as const) {
        const failure = await exports
          .run({ ...testExport, filter: {}, encoding })
          .next()
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(failure, String(encoding)).toBeInstanceOf(Error);
        expect(isDatabaseUnavailable(failure), String(encoding)).toBe(true);
      }
    } finally {
      await exports.close();
    }
  });
});
