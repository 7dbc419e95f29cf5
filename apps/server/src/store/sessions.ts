import { sql, type Insertable } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { AuditEventsTable, SessionsTable } from '../platform/db-schema';

// The owner of the `sessions` table: every statement that writes it, and every read but the
// per-request lookup (session-lookup.ts, which batches).

/** A session as the portal keeps it (its CSRF token is derived from the raw id, never stored). */
export interface StoredSession {
  idHash: string;
  accountId: string | null;
  expiresAt: Date;
  extensionsUsed: number;
  authenticatedAt: Date | null;
  reauthenticatedUntil: Date | null;
  data: Record<string, unknown>;
}

export type NewSessionRow = Insertable<SessionsTable>;

export async function insert(db: Db | Tx, row: NewSessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/**
 * Ends every live session of an account (logout everywhere, disable, terminate, password change),
 * but the one whose id hash is `except` (a password change keeps the session that made it).
 */
export async function revokeAllOf(db: Db | Tx, accountId: string, except?: string): Promise<void> {
  let revoke = db
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null);
  if (except) revoke = revoke.where('id_hash', '!=', except);
  await revoke.execute();
}

/** Ends every live session of each of the accounts, in one statement (Terminate Vendors). */
export async function revokeAllOfAccounts(tx: Tx, accountIds: readonly string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await tx
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('account_id', 'in', accountIds)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revoke(db: Db | Tx, idHash: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id_hash', '=', idHash)
    .execute();
}

/** Deletes sessions that ended more than a day ago; run by the housekeeping job. */
export async function prune(db: Db): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}

/**
 * Sets (or, with undefined, removes) one key of the session's data in a single update, so two
 * flows writing different keys at once cannot undo each other.
 */
export async function setValue(db: Db | Tx, idHash: string, key: string, value: unknown): Promise<void> {
  await db
    .updateTable('sessions')
    .set({
      data:
        value === undefined
          ? sql`data - ${key}`
          : sql`data || jsonb_build_object(${key}::text, ${JSON.stringify(value)}::jsonb)`,
    })
    .where('id_hash', '=', idHash)
    .execute();
}

/**
 * Takes one key of the session's data (a grant such as a verification) in a single guarded
 * update: removed only when it still names `accountId` and its `untilField` (ms since the epoch)
 * is after `now`. Two callers at once: one gets it. False when there was none to take.
 */
export async function takeGrant(
  tx: Tx,
  sessionIdHash: string,
  grant: { key: string; accountId: string; untilField: string; now: number },
): Promise<boolean> {
  const { key } = grant;
  const row = await tx
    .updateTable('sessions')
    .set({ data: sql`data - ${key}` })
    .where('id_hash', '=', sessionIdHash)
    .where('revoked_at', 'is', null)
    .where(sql<string>`data -> ${key} ->> 'accountId'`, '=', grant.accountId)
    .where(sql<number>`(data -> ${key} ->> ${grant.untilField})::bigint`, '>', grant.now)
    .returning('id_hash')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves a live session's end to now + `lifetime` (an interval such as '15 minutes') and counts one
 * extension, unless `max` are used up; undefined when nothing changed.
 */
export async function useOneExtension(tx: Tx, idHash: string, max: number, lifetime: string) {
  return tx
    .updateTable('sessions')
    .set({
      expires_at: sql<Date>`now() + ${lifetime}::interval`,
      extensions_used: sql<number>`extensions_used + 1`,
    })
    .where('id_hash', '=', idHash)
    .where('extensions_used', '<', max)
    .where('revoked_at', 'is', null)
    .returning(['extensions_used', 'expires_at'])
    .executeTakeFirst();
}

/**
 * Marks the session re-authenticated (its current password confirmed) until `until`, a time of the
 * app's clock: the checks of the mark read that clock too, never the database's `now()`.
 */
export async function markReauthenticated(db: Db | Tx, idHash: string, until: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ reauthenticated_until: until })
    .where('id_hash', '=', idHash)
    .execute();
}

/** Whether a session's re-authentication mark (`reauthenticatedUntil`) is still valid at `now`. */
export function isReauthenticated(session: { reauthenticatedUntil: Date | null }, now: Date): boolean {
  const until = session.reauthenticatedUntil;
  return until !== null && new Date(until).getTime() > now.getTime();
}

/**
 * Uses up the session's re-authentication mark if it is still valid at `now` (the app's clock):
 * true for exactly one caller (a second change with the same mark, even concurrent, finds it gone).
 */
export async function consumeReauthentication(tx: Tx, idHash: string, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('sessions')
    .set({ reauthenticated_until: null })
    .where('id_hash', '=', idHash)
    .where('reauthenticated_until', '>', now)
    .where('revoked_at', 'is', null)
    .returning('id_hash')
    .executeTakeFirst();
  return Boolean(row);
}

/** The account's fields an external IdP's attributes update at sign-in. */
export interface ProfileFields {
  given_name?: string;
  family_name?: string;
  email?: string;
}

/**
 * The signed-in session starts, in one statement (so all of it or none): the caller's previous
 * session is revoked, the new one inserted, the fields an external IdP sent taken (`profile`),
 * the account's last sign-in recorded, and the sign-in (and the profile's change) audited.
 * Data-modifying CTEs run to completion whether or not the main statement reads them; a CTE
 * without work (no previous session) matches no row.
 */
export async function startSignedIn(
  db: Db,
  input: {
    session: NewSessionRow;
    previousIdHash: string | null;
    accountId: string;
    profile: ProfileFields | null;
    /** When the sign-in happened (the clock's instant): the account's last sign-in. */
    signedInAt: Date;
    audits: Insertable<AuditEventsTable>[];
  },
): Promise<void> {
  await db
    .with('revoked', (qb) =>
      qb
        .updateTable('sessions')
        .set({ revoked_at: sql<Date>`now()` })
        .where('id_hash', '=', input.previousIdHash ?? '')
        .where(sql<boolean>`${input.previousIdHash !== null}`)
        .returning('id_hash'),
    )
    .with('created', (qb) => qb.insertInto('sessions').values(input.session).returning('id_hash'))
    .with('updated', (qb) =>
      qb
        .updateTable('accounts')
        .set({ ...(input.profile ?? {}), last_sign_in_at: input.signedInAt })
        .where('id', '=', input.accountId)
        .returning('id'),
    )
    .insertInto('audit_events')
    .values(input.audits)
    .execute();
}

/**
 * Ends the sessions an IdP's LogoutRequest names: those signed in with that NameID and, when the
 * request names them, those SAML session indexes (all of the NameID's otherwise). Returns how
 * many ended and the accounts they belonged to.
 */
export async function revokeBySamlSubject(
  db: Db | Tx,
  subject: { nameID: string; sessionIndexes: string[] },
  at: Date,
): Promise<{ accountId: string | null }[]> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('revoked_at', 'is', null)
    .where(sql<string>`data->'saml'->>'nameID'`, '=', subject.nameID);
  if (subject.sessionIndexes.length > 0) {
    query = query.where(sql<string>`data->'saml'->>'sessionIndex'`, 'in', subject.sessionIndexes);
  }
  return query.returning('account_id as accountId').execute();
}
