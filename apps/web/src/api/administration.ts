import type { AuditQuery } from '@pra/contracts';
import { adminApi } from '@pra/contracts/paths';

/** Only the filters that are set, as query parameters. */
function auditParams(query: AuditQuery): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  );
}

/** The CSV download of the filtered trail: a plain link, so the browser streams it to a file. */
export function auditExportUrl(query: AuditQuery): string {
  const { cursor: _cursor, limit: _limit, ...filter } = query;
  const search = new URLSearchParams(auditParams(filter)).toString();
  return search ? `${adminApi.auditExport}?${search}` : adminApi.auditExport;
}

/** A report's CSV with the filters shown (those set): a plain link, streamed to a file. */
export function reportCsvUrl(path: string, filters: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  ).toString();
  return search ? `${path}?${search}` : path;
}

/** The Access ending report's CSV with the filters shown. */
export function endingExportUrl(filters: { days: number; organization?: string; filter?: string }): string {
  return reportCsvUrl(adminApi.reportEndingCsv, filters);
}
