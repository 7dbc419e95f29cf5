import type { Db, Tx } from '../platform/db';

// The owner of `brm_delegations` (Away and Backup, GOVERNANCE.md §5): a BRM sends their approvals
// to another BRM or to the Information Security team for a period. A delegation is scheduled
// before `starts_at`, active until `ends_at` or `ended_at` (End Now, role loss), ended after.

export interface NewDelegation {
  delegatorId: string;
  /** Null: the Information Security team. */
  delegateId: string | null;
  startsAt: Date;
  endsAt: Date;
  reason: string;
  movePending: boolean;
  at: Date;
}

export async function insertDelegation(tx: Tx, d: NewDelegation): Promise<string> {
  const { id } = await tx
    .insertInto('brm_delegations')
    .values({
      delegator_id: d.delegatorId,
      delegate_id: d.delegateId,
      to_infosec: d.delegateId === null,
      starts_at: d.startsAt,
      ends_at: d.endsAt,
      reason: d.reason,
      move_pending: d.movePending,
      created_at: d.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The delegator's delegation that is not over at `at` (scheduled or active), if any. */
export async function currentDelegationOf(db: Db | Tx, delegatorId: string, at: Date) {
  return db
    .selectFrom('brm_delegations')
    .selectAll()
    .where('delegator_id', '=', delegatorId)
    .where('ended_at', 'is', null)
    .where('ends_at', '>', at)
    .orderBy('starts_at')
    .limit(1)
    .executeTakeFirst();
}

/** Delegations active at `at` whose delegator is one of `delegatorIds` (whom new items also go to). */
export async function activeDelegationsOf(db: Db | Tx, delegatorIds: readonly string[], at: Date) {
  if (delegatorIds.length === 0) return [];
  return db
    .selectFrom('brm_delegations')
    .selectAll()
    .where('delegator_id', 'in', delegatorIds)
    .where('ended_at', 'is', null)
    .where('starts_at', '<=', at)
    .where('ends_at', '>', at)
    .execute();
}

/** Ends a delegation that is not ended yet; whether it did. */
export async function endDelegation(tx: Tx, id: string, at: Date, reason: string): Promise<boolean> {
  const rows = await tx
    .updateTable('brm_delegations')
    .set({ ended_at: at, end_reason: reason })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Delegations past their end date at `at` and not marked ended: the sweep ends them. */
export async function delegationsPastEnd(db: Db, at: Date, after: { id: string } | null, limit: number) {
  let query = db
    .selectFrom('brm_delegations')
    .selectAll()
    .where('ended_at', 'is', null)
    .where('ends_at', '<=', at);
  if (after) query = query.where('id', '>', after.id);
  return query.orderBy('id').limit(limit).execute();
}
