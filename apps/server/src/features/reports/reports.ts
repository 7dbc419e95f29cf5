import {
  dormantCsvColumns,
  dormantKindLabels,
  pageRequest,
  vendorAccessCsvColumns,
  type DormantFilters,
  type DormantRow,
  type Page,
  type VendorAccessCsvFilters,
  type VendorAccessFilters,
  type VendorAccessPage,
  type VendorAccessRow,
} from '@pra/contracts';
import type { Db } from '../../platform/db';
import { answerPage } from '../../http/paging';
import { addDays, localDate, localInstant } from '../../platform/local-time';
import { readPolicyBook } from '../../identity/governance/sweep';
import * as store from '../../store/reports';
import * as aup from '../../store/aup';
import { cellsOf, inBatches, type CsvReport } from '../../http/csv-report';

// Administration → Reports (GOVERNANCE.md §9.2): each report's page (server-paged, as the screen
// shows it) and its CSV rows (read in batches after a cursor, as the download streams them).

interface Time {
  now: Date;
  zone: string;
}

const PAGE_SIZE = 25;
/** The Vendor Access report's default period: the last 90 days up to today. */
const DEFAULT_PERIOD_DAYS = 90;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const day = (d: string | null, zone: string) => (d === null ? '' : localDate(new Date(d), zone));
const name = (given: string, family: string) => `${given} ${family}`.trim();

/** A Vendor Access row as read, with the vendor's newest Acceptable Use Policy acceptance. */
type WithPolicy<Row> = Row & { policy_accepted: string | null };
type VendorAccessWithPolicy = WithPolicy<store.VendorAccessDbRow>;

/**
 * The "Policy accepted" cell of each row (GOVERNANCE.md §8): "Version {n} on {date}" of the newest
 * version the vendor accepted, read for the whole page or batch at once; null when none is recorded.
 */
async function withPolicyAccepted<Row extends store.VendorAccessDbRow>(
  db: Db,
  rows: Row[],
  zone: string,
): Promise<WithPolicy<Row>[]> {
  const accepted = await aup.newestAcceptances(
    db,
    rows.map((r) => r.account_id),
  );
  return rows.map((r) => {
    const a = accepted.get(r.account_id);
    return { ...r, policy_accepted: a ? `Version ${a.version} on ${localDate(a.acceptedAt, zone)}` : null };
  });
}

// ---- Vendor Access ----

function periodOf(query: { from?: string; to?: string; organization?: string; filter?: string }, time: Time) {
  const to = query.to ?? localDate(time.now, time.zone);
  const from = query.from ?? addDays(to, -DEFAULT_PERIOD_DAYS);
  const midnight = { hour: 0, minute: 0, second: 0 };
  const scope: store.VendorAccessScope = {
    from: localInstant(from, midnight, time.zone),
    until: localInstant(addDays(to, 1), midnight, time.zone),
    organizationId: query.organization,
    filter: (query.filter ?? '').trim(),
  };
  return { from, to, scope };
}

function vendorAccessRow(r: VendorAccessWithPolicy): VendorAccessRow {
  return {
    organization: r.organization,
    organizationId: r.organization_id,
    vendor: name(r.given_name, r.family_name),
    username: r.username,
    email: r.email,
    accessSince: iso(r.access_since)!,
    accessEnds: iso(r.access_ends)!,
    sponsor: r.sponsor,
    approvedBy: r.approved_by,
    lastConfirmedInReview: iso(r.last_confirmed_at),
    lastSignIn: iso(r.last_sign_in_at),
    signInMethod: r.sign_in_method,
    policyAccepted: r.policy_accepted,
    status: r.end_reason === null ? 'Current' : `Ended: ${r.end_reason}`,
  };
}

/** GET /api/admin/reports/vendor-access */
export async function vendorAccessPage(
  db: Db,
  query: VendorAccessFilters,
  time: Time,
): Promise<VendorAccessPage> {
  const { from, to, scope } = periodOf(query, time);
  const asked = pageRequest<store.VendorAccessSortKey>(query, PAGE_SIZE);
  return {
    ...(await answerPage(
      asked,
      await store.countVendorAccess(db, scope),
      async (offset, limit) =>
        withPolicyAccepted(
          db,
          await store.vendorAccessPage(db, scope, {
            sort: asked.sort ?? 'vendor',
            direction: asked.direction,
            offset,
            limit,
          }),
          time.zone,
        ),
      vendorAccessRow,
    )),
    from,
    to,
  };
}

/** GET /api/admin/reports/vendor-access.csv: by organization and username, streamed in batches. */
export function vendorAccessCsv(db: Db, query: VendorAccessCsvFilters, time: Time): CsvReport {
  const { from, to, scope } = periodOf(query, time);
  let organizations: string[] | undefined;
  const rows = inBatches<WithPolicy<store.VendorAccessCsvRow>>(async (after, limit) => {
    organizations ??= await store.vendorAccessOrganizations(db, scope.organizationId);
    return withPolicyAccepted(
      db,
      await store.vendorAccessBatch(db, scope, organizations, after, limit),
      time.zone,
    );
  });
  return {
    report: 'vendor-access',
    filters: { organization: query.organization, from, to, filter: scope.filter },
    fileName: `vendor-access-${from}-${to}.csv`,
    header: vendorAccessCsvColumns,
    rows: cellsOf(rows, (raw) => {
      const r = vendorAccessRow(raw);
      return [
        r.organization,
        r.vendor,
        r.username,
        r.email,
        day(r.accessSince, time.zone),
        day(r.accessEnds, time.zone),
        r.sponsor ?? 'No sponsor',
        r.approvedBy ?? '',
        day(r.lastConfirmedInReview, time.zone),
        r.lastSignIn ?? 'Never',
        r.signInMethod,
        r.policyAccepted ?? 'Not recorded',
        r.status,
      ];
    }),
  };
}

// ---- Dormant and Disabled ----

async function dormantScope(db: Db, query: { kind?: DormantFilters['kind']; filter?: string }) {
  const policy = (await readPolicyBook(db)).standard;
  return {
    kind: query.kind,
    filter: (query.filter ?? '').trim(),
    closeAfterDisableDays: policy.terminateAfterDisableDays,
    neverActivatedCloseDays: policy.neverActivatedCloseDays,
  };
}

function dormantRow(r: store.DormantDbRow, zone: string): DormantRow {
  return {
    accountId: r.account_id,
    vendor: name(r.given_name, r.family_name),
    username: r.username,
    email: r.email,
    kind: r.kind,
    reason: r.reason,
    since: iso(r.since)!,
    lastSignIn: iso(r.last_sign_in_at),
    closesOn: r.closes_at === null ? null : localDate(new Date(r.closes_at), zone),
    organizations: r.organizations ?? '',
  };
}

/** GET /api/admin/reports/dormant */
export async function dormantPage(db: Db, query: DormantFilters, time: Time): Promise<Page<DormantRow>> {
  const scope = await dormantScope(db, query);
  const asked = pageRequest<store.DormantSortKey>(query, PAGE_SIZE);
  return answerPage(
    asked,
    await store.countDormant(db, scope),
    (offset, limit) =>
      store.dormantRows(db, scope, {
        sort: asked.sort ?? 'since',
        direction: asked.direction,
        offset,
        limit,
      }),
    (r) => dormantRow(r, time.zone),
  );
}

/** GET /api/admin/reports/dormant.csv */
export async function dormantCsv(
  db: Db,
  query: { kind?: DormantFilters['kind']; filter?: string },
  time: Time,
): Promise<CsvReport> {
  const scope = await dormantScope(db, query);
  const rows = inBatches<store.DormantDbRow>((after, limit) =>
    store.dormantRows(db, scope, {
      after: after && { username: after.username.toLowerCase(), accountId: after.account_id },
      limit,
    }),
  );
  return {
    report: 'dormant',
    filters: { kind: scope.kind, filter: scope.filter },
    fileName: `dormant-and-disabled-${localDate(time.now, time.zone)}.csv`,
    header: dormantCsvColumns,
    rows: cellsOf(rows, (raw) => {
      const r = dormantRow(raw, time.zone);
      return [
        r.vendor,
        r.username,
        r.email,
        dormantKindLabels[r.kind],
        r.reason ?? '',
        r.since,
        r.lastSignIn ?? 'Never',
        r.closesOn ?? '',
        r.organizations,
      ];
    }),
  };
}

// ---- Review Evidence: the campaigns ----

type EvidenceQuery = {
  page?: number;
  size?: number;
  filter?: string;
  sort?: store.EvidenceSortKey;
  direction?: 'asc' | 'desc';
};

/** GET /api/admin/reports/review-evidence: by default the latest closed first. */
export async function evidenceCampaignsPage(db: Db, query: EvidenceQuery) {
  const asked = pageRequest<store.EvidenceSortKey>(
    { ...query, direction: query.direction ?? (query.sort ? 'asc' : 'desc') },
    PAGE_SIZE,
  );
  return answerPage(
    asked,
    await store.countCampaigns(db, asked.filter),
    (offset, limit) =>
      store.campaignRows(db, {
        filter: asked.filter,
        sort: asked.sort ?? 'closedAt',
        direction: asked.direction,
        offset,
        limit,
      }),
    (r) => ({
      id: r.id,
      cycle: r.cycle,
      organization: r.organization,
      status: r.status,
      closedAt: iso(r.closed_at),
      items: r.items,
    }),
  );
}
