import { sql } from 'kysely';
import type { Db } from '../platform/db';

// Every table at once, for `npm run seed:demo` (standalone only).

/** Empties every table of the portal but the audit trail, which refuses TRUNCATE. */
export async function truncateAllButAudit(db: Db): Promise<void> {
  const tables = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = 'public' and tablename not like 'kysely_%' and tablename <> 'audit_events'`.execute(
    db,
  );
  const names = tables.rows.map((row) => `"${row.tablename}"`).join(', ');
  await sql.raw(`truncate ${names} cascade`).execute(db);
}
