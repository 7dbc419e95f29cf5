import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { CodesTable } from '../platform/db-schema';

// The owner of `codes`: the one-time activation and reset codes, stored as keyed hashes
// (identity/codes.ts makes and hashes them).

type CodeKind = CodesTable['kind'];

/**
 * Stores a code for the account and makes its earlier unused codes of the same kind expire, so
 * only the newest works.
 */
export async function replaceUnused(
  tx: Tx,
  code: { accountId: string; kind: CodeKind; codeHash: string; ttlSeconds: number },
): Promise<void> {
  await tx
    .updateTable('codes')
    .set({ expires_at: sql<Date>`least(expires_at, now())` })
    .where('account_id', '=', code.accountId)
    .where('kind', '=', code.kind)
    .where('used_at', 'is', null)
    .execute();
  await tx
    .insertInto('codes')
    .values({
      account_id: code.accountId,
      kind: code.kind,
      code_hash: code.codeHash,
      expires_at: sql<Date>`now() + ${`${code.ttlSeconds} seconds`}::interval`,
    })
    .execute();
}

/** A code by its hash, with its account and whether it has expired (by the database's clock). */
export async function findCodeWithAccount(db: Db | Tx, codeHash: string) {
  return db
    .selectFrom('codes as c')
    .innerJoin('accounts as a', 'a.id', 'c.account_id')
    .selectAll('a')
    .select(['c.id as codeId', 'c.kind', 'c.used_at', sql<boolean>`c.expires_at <= now()`.as('expired')])
    .where('c.code_hash', '=', codeHash)
    .executeTakeFirst();
}

/** Marks an unused, unexpired code used; undefined when another request got there first. */
export async function claimActivationCode(tx: Tx, codeId: string): Promise<{ id: string } | undefined> {
  return tx
    .updateTable('codes')
    .set({ used_at: sql<Date>`now()` })
    .where('id', '=', codeId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
}

/** Uses up a reset code that is still unused; false when another request used it first. */
export async function claimResetCode(tx: Tx, codeId: string): Promise<boolean> {
  const row = await tx
    .updateTable('codes')
    .set({ used_at: sql<Date>`now()` })
    .where('id', '=', codeId)
    .where('kind', '=', 'reset')
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Uses up every unused reset code of the account (its password was just set). */
export async function useUpResetCodes(tx: Tx, accountId: string): Promise<void> {
  await tx
    .updateTable('codes')
    .set({ used_at: sql<Date>`now()` })
    .where('account_id', '=', accountId)
    .where('kind', '=', 'reset')
    .where('used_at', 'is', null)
    .execute();
}
