import { sql, type RawBuilder } from 'kysely';

/**
 * `column` is one of `usernames`, exactly, by the unique index on lower(username) (a plain
 * `username in (...)` cannot use it and reads every account: 9 ms for ten names at 50,000 vendors).
 */
export function usernameIn(column: string, usernames: readonly string[]): RawBuilder<boolean> {
  const ref = sql.ref(column);
  // Two array parameters, not one per name: a BRM's whole list of 45,000 vendors as a list of
  // parameters passed the protocol's 65,535 and failed (500).
  return sql<boolean>`(lower(${ref}) = any(${usernames.map((u) => u.toLowerCase())}::text[])
    and ${ref} = any(${[...usernames]}::text[]))`;
}
