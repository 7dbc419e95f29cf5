import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import type { auditRow } from '../../identity/audit';
import type { newSession } from '../../http/session';

/**
 * The signed-in session starts, in one statement (so all of it or none): the caller's previous
 * session is revoked, the new one inserted, the names an external IdP sent taken (`names`), and
 * the sign-in audited. Data-modifying CTEs run to completion whether or not the main statement
 * reads them; a CTE without work (no previous session, no names) matches no row.
 */
export async function startSignedInSession(
  db: Db,
  input: {
    session: ReturnType<typeof newSession>['row'];
    previousIdHash: string | null;
    accountId: string;
    names: { given_name: string; family_name: string } | null;
    audit: ReturnType<typeof auditRow>;
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
    .with('renamed', (qb) =>
      qb
        .updateTable('accounts')
        .set((eb) => input.names ?? { given_name: eb.ref('given_name') })
        .where('id', '=', input.accountId)
        .where(sql<boolean>`${input.names !== null}`)
        .returning('id'),
    )
    .insertInto('audit_events')
    .values(input.audit)
    .execute();
}
