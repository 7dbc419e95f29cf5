import type { Db, Tx } from '../platform/db';
import type { RiskTier } from '../platform/db-schema';

// The owner of `governance_policies` (one row of settings per risk tier) and `governance_sweep`
// (the lease that lets one instance sweep at a time, and what the last sweep did).

/**
 * Every tier's settings object as stored (the callers parse it with contracts' schema), with who
 * saved it last; one tier's row locked for the rest of the transaction when asked.
 */
export async function readPolicies(db: Db | Tx, only?: { tier: RiskTier; forUpdate: boolean }) {
  let query = db
    .selectFrom('governance_policies as p')
    .leftJoin('accounts as a', 'a.id', 'p.updated_by')
    .select(['p.tier', 'p.settings', 'p.updated_at', 'p.updated_by', 'a.username as updatedByUsername'])
    .orderBy('p.tier', 'desc');
  if (only) query = query.where('p.tier', '=', only.tier);
  if (only?.forUpdate) query = query.forUpdate('p');
  return query.execute();
}

export async function writePolicy(
  tx: Tx,
  tier: RiskTier,
  settings: Record<string, unknown>,
  by: { accountId: string; at: Date },
): Promise<boolean> {
  const result = await tx
    .updateTable('governance_policies')
    .set({ settings: JSON.stringify(settings), updated_at: by.at, updated_by: by.accountId })
    .where('tier', '=', tier)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Takes the sweep lease when it is free (or expired) at `now`: one conditional statement, so of
 * two instances asking at once exactly one gets it; no session lock held on a pooled connection.
 */
export async function takeSweepLease(db: Db, owner: string, now: Date, until: Date): Promise<boolean> {
  const rows = await db
    .updateTable('governance_sweep')
    .set({ owner, leased_until: until, last_started_at: now })
    .where('id', '=', 1)
    .where('leased_until', '<', now)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Extends the lease while its owner still holds it; false: it was lost (taken over after expiry). */
export async function renewSweepLease(db: Db, owner: string, until: Date): Promise<boolean> {
  const rows = await db
    .updateTable('governance_sweep')
    .set({ leased_until: until })
    .where('id', '=', 1)
    .where('owner', '=', owner)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Gives the lease back at the end of a sweep, with what the sweep did. */
export async function releaseSweepLease(
  db: Db,
  owner: string,
  finishedAt: Date,
  summary: Record<string, unknown>,
): Promise<void> {
  await db
    .updateTable('governance_sweep')
    .set({
      leased_until: new Date(0),
      last_finished_at: finishedAt,
      last_summary: JSON.stringify(summary),
    })
    .where('id', '=', 1)
    .where('owner', '=', owner)
    .execute();
}

/** The lease row: who sweeps (or swept last), until when, and the last sweep's summary. */
export async function readSweepState(db: Db) {
  return db
    .selectFrom('governance_sweep')
    .select(['owner', 'leased_until', 'last_started_at', 'last_finished_at', 'last_summary'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
}
