import {
  answeredPage,
  endingCsvColumns,
  pageRequest,
  type EndingPage,
  type EndingFilters,
  type EndingRow,
} from '@pra/contracts';
import type { Db } from '../../platform/db';
import { addDays, daysLeft, endOfLocalDay, localDate } from '../../platform/local-time';
import type { CsvReport } from '../../http/csv-report';
import { countEnding, listEnding, type EndingSortKey, type EndingWindow } from '../../store/access-ending';

/** The report's default window and page size. */
const DEFAULT_DAYS = 30;
const PAGE_SIZE = 25;
/** Rows read per statement while the CSV streams. */
const CSV_BATCH = 1000;

interface Time {
  now: Date;
  zone: string;
}

/** Today and the window's last day in the hospital's zone, and the window's instants. */
function windowOf(query: { days?: number; organization?: string; filter?: string }, time: Time) {
  const from = localDate(time.now, time.zone);
  const until = addDays(from, query.days ?? DEFAULT_DAYS);
  const window: EndingWindow = {
    after: time.now,
    until: endOfLocalDay(until, time.zone),
    organizationId: query.organization,
    filter: (query.filter ?? '').trim(),
  };
  return { from, until, window };
}

type Row = Awaited<ReturnType<typeof listEnding>>[number];

function toRow(row: Row, time: Time): EndingRow {
  const end = new Date(row.expiresAt);
  const sponsor =
    row.sponsorFamilyName === null ? null : `${row.sponsorGivenName ?? ''} ${row.sponsorFamilyName}`.trim();
  return {
    organization: row.organization,
    organizationId: row.organizationId,
    username: row.username,
    vendor: `${row.givenName} ${row.familyName}`.trim(),
    email: row.email,
    endsOn: localDate(end, time.zone),
    daysLeft: daysLeft(time.now, end, time.zone),
    sponsor,
    extensionPending: Boolean(row.extensionPending),
  };
}

/** GET /api/admin/reports/ending: one page, its counts, and the window's dates. */
export async function accessEndingPage(db: Db, query: EndingFilters, time: Time): Promise<EndingPage> {
  const { from, until, window } = windowOf(query, time);
  const asked = pageRequest<EndingSortKey>(query, PAGE_SIZE);
  const { total, matching } = await countEnding(db, window);
  const page = answeredPage(asked.page, asked.size, matching);
  const rows = await listEnding(db, window, {
    sort: asked.sort ?? 'endsOn',
    direction: asked.direction,
    offset: (page - 1) * asked.size,
    limit: asked.size,
  });
  return { items: rows.map((r) => toRow(r, time)), total, matching, page, size: asked.size, from, until };
}

/** The report's file name: `access-ending-{today}-{days}d.csv`. */
export function accessEndingFileName(query: { days?: number }, time: Time): string {
  return `access-ending-${localDate(time.now, time.zone)}-${query.days ?? DEFAULT_DAYS}d.csv`;
}

/**
 * GET /api/admin/reports/ending.csv: every matching grant by end date, read in batches so a large
 * report streams (reports/csv-export.ts neutralises the cells and audits the export).
 */
export function accessEndingCsv(
  db: Db,
  query: { days?: number; organization?: string; filter?: string },
  time: Time,
): CsvReport {
  const { window } = windowOf(query, time);
  async function* rows() {
    for (let offset = 0; ; offset += CSV_BATCH) {
      const batch = await listEnding(db, window, {
        sort: 'endsOn',
        direction: 'asc',
        offset,
        limit: CSV_BATCH,
      });
      for (const row of batch) {
        const r = toRow(row, time);
        yield [
          r.organization,
          r.username,
          r.vendor,
          r.email,
          r.endsOn,
          String(r.daysLeft),
          r.sponsor ?? 'No sponsor',
          r.extensionPending ? 'Yes' : 'No',
        ];
      }
      if (batch.length < CSV_BATCH) return;
    }
  }
  return {
    report: 'access-ending',
    filters: { days: query.days ?? DEFAULT_DAYS, organization: query.organization, filter: window.filter },
    fileName: accessEndingFileName(query, time),
    header: endingCsvColumns,
    rows: rows(),
  };
}
