import { sql, type Insertable } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { AuditEventsTable } from '../platform/db-schema';
import { prefixPattern } from './like';

// The owner of `audit_events`, the append-only audit trail: appended by identity/audit.ts, read,
// exported and purged by Administration.

export type NewAuditRow = Insertable<AuditEventsTable>;

export async function append(db: Db | Tx, row: NewAuditRow): Promise<void> {
  await db.insertInto('audit_events').values(row).execute();
}

/** Appends many events in one statement per thousand. */
export async function appendMany(db: Db | Tx, rows: readonly NewAuditRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('audit_events')
      .values(rows.slice(i, i + 1000))
      .execute();
  }
}

/** The audit trail's filters, already validated (contracts' auditQuery). */
export interface AuditFilter {
  person?: string | undefined;
  actor?: string | undefined;
  target?: string | undefined;
  organization?: string | undefined;
  action?: string | undefined;
  outcome?: 'success' | 'failure' | 'denied' | undefined;
  from?: string | Date | undefined;
  to?: string | Date | undefined;
}

/** Where the next page starts: the last row's exact time (PostgreSQL text, microseconds) and id. */
export interface AuditCursor {
  at: string;
  id: string;
}

/**
 * A person is named by username or email; an account's events may carry either (a registration
 * is made by an email address, the account it becomes has a username), so both are matched, by
 * name and by account id.
 */
async function personTerms(db: Db, person: string) {
  const name = person.trim().toLowerCase();
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'username', 'email'])
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', name), eb(sql`lower(email)`, '=', name)]))
    .limit(20)
    .execute();
  const names = [
    ...new Set([name, ...accounts.flatMap((a) => [a.username.toLowerCase(), a.email.toLowerCase()])]),
  ];
  return { names, ids: accounts.map((a) => a.id) };
}

/** One page (or batch) of events, newest first, strictly after `cursor` when given. */
export async function selectAuditEvents(
  db: Db,
  filter: AuditFilter,
  cursor: AuditCursor | null,
  limit: number,
) {
  const person = filter.person ? await personTerms(db, filter.person) : null;
  let query = db
    .selectFrom('audit_events as e')
    .select([
      'e.id',
      'e.occurred_at',
      sql<string>`e.occurred_at::text`.as('cursor_at'),
      'e.action',
      'e.outcome',
      'e.actor_username',
      'e.target_username',
      'e.client_address',
      'e.details',
      'e.organization_id',
    ]);
  if (person) {
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(e.actor_username)`, 'in', person.names),
        eb(sql`lower(e.target_username)`, 'in', person.names),
        ...(person.ids.length > 0
          ? [eb('e.actor_id', 'in', person.ids), eb('e.target_id', 'in', person.ids)]
          : []),
      ]),
    );
  }
  if (filter.actor) query = query.where(sql`lower(e.actor_username)`, '=', filter.actor.trim().toLowerCase());
  if (filter.target)
    query = query.where(sql`lower(e.target_username)`, '=', filter.target.trim().toLowerCase());
  if (filter.organization) {
    const orgName = filter.organization.trim().toLowerCase();
    query = query.where('e.organization_id', 'in', (eb) =>
      eb
        .selectFrom('organizations')
        .select('id')
        .where(sql`lower(name)`, '=', orgName),
    );
  }
  if (filter.action) query = query.where('e.action', 'like', prefixPattern(filter.action.trim()));
  if (filter.outcome) query = query.where('e.outcome', '=', filter.outcome);
  if (filter.from) query = query.where('e.occurred_at', '>=', new Date(filter.from));
  if (filter.to) query = query.where('e.occurred_at', '<', new Date(filter.to));
  if (cursor) {
    // Row comparison: answered from the (occurred_at desc, id desc) index.
    query = query.where(
      sql<boolean>`(e.occurred_at, e.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`,
    );
  }
  // The batch is chosen first and named after: joined before the limit, a filter matching many
  // events (a common action) let the planner read every remaining event and sort them for each
  // batch, so an export of 200,000 took 80-90 s and a batch could pass the statement timeout.
  const batch = query.orderBy('e.occurred_at', 'desc').orderBy('e.id', 'desc').limit(limit);
  return db
    .selectFrom(batch.as('e'))
    .leftJoin('organizations as o', 'o.id', 'e.organization_id')
    .selectAll('e')
    .select('o.name as organization')
    .orderBy('e.occurred_at', 'desc')
    .orderBy('e.id', 'desc')
    .execute();
}

export type AuditRow = Awaited<ReturnType<typeof selectAuditEvents>>[number];

/** Deletes events older than the cutoff through the one path the append-only trigger allows. */
export async function purgeAuditEvents(db: Db | Tx, cutoff: Date): Promise<number> {
  const result = await sql<{ removed: number }>`select purge_audit_events(${cutoff}) as removed`.execute(db);
  return Number(result.rows[0]?.removed ?? 0);
}

export async function countAuditEventsBefore(db: Db, cutoff: Date): Promise<number> {
  const row = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('occurred_at', '<', cutoff)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
