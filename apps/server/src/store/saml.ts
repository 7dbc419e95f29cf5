import { sql } from 'kysely';
import type { Db } from '../platform/db';
import type { Account } from '../platform/db-schema';

// The owner of `saml_requests` (the SP's sign-ins under way) and `saml_assertions` (assertions
// already consumed, refused when replayed).

/** Deletes the expired requests and assertions; run by the housekeeping job. */
export async function pruneExpired(db: Db): Promise<void> {
  await db
    .deleteFrom('saml_requests')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await db
    .deleteFrom('saml_assertions')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}

/** Records an AuthnRequest id with the hash of the starting browser's nonce (once). */
export async function recordRequest(
  db: Db,
  request: { id: string; expiresAt: Date; browserHash: string },
): Promise<void> {
  await db
    .insertInto('saml_requests')
    .values({ id: request.id, expires_at: request.expiresAt, browser_hash: request.browserHash })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** When the AuthnRequest id was issued, while it is live; null otherwise. */
export async function liveRequestCreatedAt(db: Db, id: string): Promise<Date | null> {
  const row = await db
    .selectFrom('saml_requests')
    .select('created_at')
    .where('id', '=', id)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row ? row.created_at : null;
}

export type ConsumeOutcome = 'consumed' | 'requestNotOurs' | 'assertionReplayed';

/**
 * In one statement: uses up the AuthnRequest id the response answers, if this browser started it
 * and it is live, and only then records the assertion id. `requestNotOurs`: the id was already
 * used, never issued, expired or started by another browser (nothing recorded);
 * `assertionReplayed`: the assertion was seen before (the id is used up all the same). The same
 * round trip reads the account the assertion names (`username`, case-insensitive), if any.
 */
export async function consumeRequestAndRecordAssertion(
  db: Db,
  input: {
    requestId: string;
    browserHash: string;
    assertionId: string;
    assertionExpiresAt: Date;
    username: string;
  },
): Promise<{ outcome: ConsumeOutcome; account: Account | undefined }> {
  if (!input.browserHash) return { outcome: 'requestNotOurs', account: undefined };
  const { rows } = await sql<{ consumed: number; recorded: number } & NullableColumns<Account>>`
    with consumed as (
      delete from saml_requests
      where id = ${input.requestId} and browser_hash = ${input.browserHash} and expires_at > now()
      returning id
    ), recorded as (
      insert into saml_assertions (id, expires_at)
      select ${input.assertionId}::text, ${input.assertionExpiresAt.toISOString()}::timestamptz from consumed
      on conflict (id) do nothing
      returning id
    ), outcome as (
      select (select count(*) from consumed)::int as consumed, (select count(*) from recorded)::int as recorded
    )
    select a.*, outcome.consumed, outcome.recorded
    from outcome left join accounts a on lower(a.username) = ${input.username.toLowerCase()}`.execute(db);
  const { consumed, recorded, ...columns } = rows[0] ?? { consumed: 0, recorded: 0, id: null };
  const account = columns.id === null ? undefined : (columns as Account);
  if (!consumed) return { outcome: 'requestNotOurs', account };
  return { outcome: recorded ? 'consumed' : 'assertionReplayed', account };
}

/** A row type whose columns may all be null (the unmatched side of an outer join). */
type NullableColumns<T> = { [K in keyof T]: T[K] | null };
