// The Vendor Access report's CSV streams with flat memory (GOVERNANCE.md §9.2, issue 29): for
// 50,000 vendors (each a current grant, every tenth also an ended one in the period) the CSV's
// rows are read in batches after a cursor and turned into formula-safe lines as the download does
// (http/csv-report.ts), and the JavaScript heap may grow by at most 50 MB over its size before.
// On PostgreSQL when TEST_DATABASE_URL is set, else on the embedded database. VENDOR_ACCESS_BENCH_VENDORS
// changes the count. Alone: `node --expose-gc --import tsx bench/vendor-access-report.ts`.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { csvLine } from '@pra/contracts/csv';
import { vendorAccessCsv } from '../apps/server/src/features/reports/reports';
import { createTestDatabase } from '../apps/server/test/support/databases';
import { printTable, type BenchRow } from './table';

const VENDORS = Number(process.env.VENDOR_ACCESS_BENCH_VENDORS ?? '50000');
const ORGS = 50;
const MB = 1024 * 1024;

export async function benchVendorAccessReport(): Promise<BenchRow[]> {
  const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const database = await createTestDatabase(kind);
  const db = database.db;
  const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const now = new Date('2027-06-15T14:00:00Z');
  try {
    await sql`insert into organizations (name) select 'Org ' || i from generate_series(1, ${ORGS}) i`.execute(
      db,
    );
    await sql`
      insert into accounts (username, email, type, status, given_name, family_name, last_sign_in_at)
      select 'vendor' || i, 'vendor' || i || '@acme.example', 'vendor', 'active', 'V', 'Endor' || i,
             ${now}::timestamptz - make_interval(days => (i % 120)::int)
      from generate_series(1, ${VENDORS}) i`.execute(db);
    await sql`
      insert into role_grants (account_id, organization_id, granted_at, expires_at)
      select a.id, o.id, ${now}::timestamptz - interval '100 days', ${now}::timestamptz + interval '100 days'
      from (select id, row_number() over (order by id) as n from accounts where type = 'vendor') a
      join (select id, row_number() over (order by id) - 1 as m from organizations) o on o.m = a.n % ${ORGS}`.execute(
      db,
    );
    await sql`
      insert into grant_history (account_id, organization_id, granted_at, expires_at, ended_at, end_reason)
      select g.account_id, g.organization_id, ${now}::timestamptz - interval '300 days',
             ${now}::timestamptz - interval '30 days', ${now}::timestamptz - interval '30 days', 'expired'
      from (select *, row_number() over (order by account_id) as n from role_grants) g where g.n % 10 = 0`.execute(
      db,
    );
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let rows = 0;
    let bytes = 0;
    const started = performance.now();
    const csv = vendorAccessCsv(db, {}, { now, zone: 'America/New_York' });
    for await (const cells of csv.rows) {
      bytes += csvLine(cells).length;
      rows += 1;
      // What the stream keeps (after a collection when gc is exposed), not garbage V8 has not yet
      // collected: the un-collected peak follows V8's scheduling, not the export's memory.
      if (rows % 5000 === 0) {
        gc?.();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
    }
    const ms = performance.now() - started;
    const growth = (peak - before) / MB;
    console.log(
      `Vendor Access CSV: ${rows} rows, ${(bytes / MB).toFixed(1)} MB of CSV in ${Math.round(ms)} ms; heap growth while streaming ${growth.toFixed(1)} MB (${gc ? 'kept, after a collection every 5,000 rows' : 'gc not exposed: includes uncollected garbage'})`,
    );
    return [
      {
        figure: `Vendor Access CSV, ${VENDORS} vendors: heap growth, ${label}`,
        value: Math.round(growth * 10) / 10,
        unit: 'MB',
        goal: { atMost: 50 },
        note: `${rows} rows, ${(bytes / MB).toFixed(1)} MB streamed in batches of 1,000`,
      },
      {
        figure: `Vendor Access CSV, ${VENDORS} vendors: time, ${label}`,
        value: Math.round(ms),
        unit: 'ms',
        goal: { text: 'report' },
        note: 'rows read and formatted, no network',
      },
    ];
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(await benchVendorAccessReport());
}
