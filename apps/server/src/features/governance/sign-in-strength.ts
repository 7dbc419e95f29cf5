import { pageRequest, signInStrengthCsvColumns, type Page, type SignInStrengthRow } from '@pra/contracts';
import type { Db } from '../../platform/db';
import { answerPage } from '../../http/paging';
import { localDate } from '../../platform/local-time';
import { cellsOf, type CsvReport } from '../../http/csv-report';
import * as store from '../../store/reports';

interface Time {
  now: Date;
  zone: string;
}

const PAGE_SIZE = 25;

// ---- Sign-in Strength ----

type StrengthQuery = {
  page?: number;
  size?: number;
  filter?: string;
  sort?: store.StrengthSortKey;
  direction?: 'asc' | 'desc';
};

function strengthRow(r: Awaited<ReturnType<typeof store.signInStrengthRows>>[number]): SignInStrengthRow {
  return {
    id: r.id,
    name: r.name,
    riskTier: r.risk_tier,
    vendors: r.vendors,
    phishingResistant: r.with_key,
    share: r.vendors > 0 ? r.with_key / r.vendors : 0,
  };
}

/** GET /api/admin/reports/sign-in-strength: one page of organizations with active vendors. */
export async function signInStrengthPage(
  db: Db,
  query: StrengthQuery,
  time: Time,
): Promise<Page<SignInStrengthRow>> {
  const asked = pageRequest<store.StrengthSortKey>(query, PAGE_SIZE);
  return answerPage(
    asked,
    await store.countSignInStrength(db, time.now, asked.filter),
    (offset, limit) =>
      store.signInStrengthRows(db, time.now, {
        filter: asked.filter,
        sort: asked.sort ?? 'name',
        direction: asked.direction,
        offset,
        limit,
      }),
    strengthRow,
  );
}

/** GET /api/admin/reports/sign-in-strength.csv (one row per organization: one statement). */
export function signInStrengthCsv(db: Db, query: { filter?: string }, time: Time): CsvReport {
  const filter = (query.filter ?? '').trim();
  async function* rows() {
    yield* await store.signInStrengthRows(db, time.now, {
      filter,
      sort: 'name',
      direction: 'asc',
      offset: 0,
      limit: null,
    });
  }
  return {
    report: 'sign-in-strength',
    filters: { filter },
    fileName: `sign-in-strength-${localDate(time.now, time.zone)}.csv`,
    header: signInStrengthCsvColumns,
    rows: cellsOf(rows(), (raw) => {
      const r = strengthRow(raw);
      return [
        r.name,
        r.riskTier,
        String(r.vendors),
        String(r.phishingResistant),
        `${Math.round(r.share * 100)}%`,
      ];
    }),
  };
}
