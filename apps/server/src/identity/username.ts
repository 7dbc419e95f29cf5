import { sql } from 'kysely';
import type { Tx } from '../platform/db';

export const USERNAME_MAX_LENGTH = 20;

/** Latin letters that do not decompose into a base letter and a mark. */
const TRANSLITERATIONS: Record<string, string> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ł: 'l',
  þ: 'th',
  ð: 'd',
};

/** Lowercase ASCII letters only: diacritics dropped (é → e), everything else removed. */
function asciiLetters(text: string): string {
  return text
    .toLowerCase()
    .replace(/[øæœßđłþð]/g, (ch) => TRANSLITERATIONS[ch] ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/**
 * The username a new account would get before uniqueness: given-name initial + family name,
 * lowercase ASCII, at most 20 characters. Names without any Latin letter fall back to "user".
 */
export function usernameBase(givenName: string, familyName: string): string {
  const base = (asciiLetters(givenName).slice(0, 1) + asciiLetters(familyName)).slice(0, USERNAME_MAX_LENGTH);
  return base.length > 0 ? base : 'user';
}

/** The n-th candidate: the base itself, then base1, base2, …, shortened to stay within 20 characters. */
export function usernameCandidate(base: string, n: number): string {
  if (n === 0) return base;
  const suffix = String(n);
  return base.slice(0, USERNAME_MAX_LENGTH - suffix.length) + suffix;
}

/** The first candidate `isTaken` says is free. */
export async function firstFreeUsername(
  base: string,
  isTaken: (candidate: string) => Promise<boolean>,
): Promise<string> {
  for (let n = 0; n < 100_000; n += 1) {
    const candidate = usernameCandidate(base, n);
    if (!(await isTaken(candidate))) return candidate;
  }
  throw new Error('no free username');
}

/**
 * A unique username for a new account. The advisory lock makes two approvals that would pick the
 * same name wait for each other instead of colliding on the unique index.
 */
export async function generateUsername(tx: Tx, givenName: string, familyName: string): Promise<string> {
  const base = usernameBase(givenName, familyName);
  await sql`select pg_advisory_xact_lock(hashtext(${`username:${base}`}))`.execute(tx);
  return firstFreeUsername(base, async (candidate) => {
    const row = await tx
      .selectFrom('accounts')
      .select('id')
      .where(sql<string>`lower(username)`, '=', candidate)
      .executeTakeFirst();
    return Boolean(row);
  });
}
