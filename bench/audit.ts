// The audit trail at 1,000,000 events: the admin list's first page (newest first, keyset) and the
// streamed CSV export's memory. On PostgreSQL when TEST_DATABASE_URL is set, else on the embedded
// database. Alone: `node --import tsx bench/audit.ts` (AUDIT_BENCH_EVENTS=… for another size).
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { auditExport } from '../apps/server/src/features/administration/audit-export';
import { auditPage } from '../apps/server/src/features/administration/audit-trail';
import { createTestDatabase } from '../apps/server/test/support/databases';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  goal: string;
}

const EVENTS = Number(process.env.AUDIT_BENCH_EVENTS ?? 1_000_000);

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timed(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

export async function benchAudit(): Promise<BenchRow[]> {
  const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  // Loading a million rows and exporting them are long statements: no portal timeouts here.
  const database = await createTestDatabase(kind, {
    statementMs: 0,
    idleInTransactionMs: 0,
    connectionWaitMs: 10_000,
  });
  const { db } = database;
  try {
    const loadStart = performance.now();
    // In batches, so PGlite's single connection does not hold one enormous statement.
    for (let from = 0; from < EVENTS; from += 100_000) {
      const to = Math.min(EVENTS, from + 100_000);
      await sql`
        insert into audit_events (occurred_at, action, outcome, actor_username, target_username, client_address, details)
        select now() - make_interval(secs => g), (array['signin', 'request.approve', 'registration.submit'])[1 + g % 3],
               case when g % 17 = 0 then 'failure' else 'success' end, 'user' || (g % 5000),
               'vendor' || (g % 20000) || '@acme.example', '10.0.0.' || (g % 250), jsonb_build_object('requestId', g)
        from generate_series(${from + 1}::int, ${to}::int) g`.execute(db);
    }
    await sql`analyze audit_events`.execute(db);
    const loadSeconds = (performance.now() - loadStart) / 1000;

    const firstPage = await timed(20, () => auditPage(db, {}, undefined, 50));
    const page = await auditPage(db, {}, undefined, 50);
    const tenthPage = await timed(20, () => auditPage(db, {}, page.nextCursor ?? undefined, 50));
    const byPerson = await timed(20, () => auditPage(db, { person: 'vendor42@acme.example' }, undefined, 50));

    // The export, consumed as a slow-enough reader would: heap sampled every 50,000 rows.
    global.gc?.();
    const heapAtStart = process.memoryUsage().heapUsed;
    let rows = 0;
    let bytes = 0;
    let peak = heapAtStart;
    const exportStart = performance.now();
    for await (const line of auditExport(db, {}, 'csv')) {
      rows += 1;
      bytes += line.length;
      if (rows % 50_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    const exportSeconds = (performance.now() - exportStart) / 1000;
    const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    return [
      {
        name: `audit: ${EVENTS.toLocaleString('en')} events loaded (${kind})`,
        value: Math.round(loadSeconds),
        unit: 's',
        goal: 'setup',
      },
      {
        name: 'audit: first page, newest first (50 rows)',
        value: Math.round(firstPage * 100) / 100,
        unit: 'ms',
        goal: '≤ 50 ms',
      },
      {
        name: 'audit: next page by keyset cursor',
        value: Math.round(tenthPage * 100) / 100,
        unit: 'ms',
        goal: '≤ 50 ms',
      },
      {
        name: 'audit: first page filtered by person',
        value: Math.round(byPerson * 100) / 100,
        unit: 'ms',
        goal: '≤ 50 ms',
      },
      {
        name: `audit: CSV export of ${rows.toLocaleString('en')} rows (${mb(bytes)} MB)`,
        value: Math.round(exportSeconds),
        unit: 's',
        goal: 'streams',
      },
      {
        name: 'audit: export peak heap growth',
        value: mb(peak - heapAtStart),
        unit: 'MB',
        goal: `flat (CSV is ${mb(bytes)} MB)`,
      },
    ];
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchAudit()) {
    console.log(
      `${row.name.padEnd(56)} ${String(row.value).padStart(10)} ${row.unit.padEnd(3)} goal ${row.goal}`,
    );
  }
}
