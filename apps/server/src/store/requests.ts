import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';

// The owner of `requests` and their `request_items`.

/** Records the account a request created. */
export async function setBeneficiary(tx: Tx, requestId: string, accountId: string): Promise<void> {
  await tx.updateTable('requests').set({ beneficiary_id: accountId }).where('id', '=', requestId).execute();
}

/** Whether a pending registration (New Account) has the email (`folded`: lowercase). */
export async function pendingRegistrationHasEmail(db: Db | Tx, folded: string): Promise<boolean> {
  const pending = await db
    .selectFrom('requests')
    .select('id')
    .where(sql<string>`lower(email)`, '=', folded)
    .where('type', '=', 'New Account')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return pending !== undefined;
}

/**
 * A `New Account` request and its one item for the organization: pending for a self-registration,
 * already approved (decided by `decidedBy`, now) when a BRM or admin registers on the vendor's behalf.
 */
export async function insertRegistration(
  tx: Tx,
  r: {
    status: 'pending' | 'approved';
    requesterId: string | null;
    firstName: string;
    lastName: string;
    email: string;
    comment: string;
    organizationId: string;
    decidedBy: string | null;
  },
): Promise<{ requestId: string; itemId: string }> {
  const { id: requestId } = await tx
    .insertInto('requests')
    .values({
      type: 'New Account',
      status: r.status,
      requester_id: r.requesterId,
      first_name: r.firstName,
      last_name: r.lastName,
      email: r.email,
      comment: r.comment,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: itemId } = await tx
    .insertInto('request_items')
    .values({
      request_id: requestId,
      organization_id: r.organizationId,
      operation: 'Add',
      status: r.status,
      decided_by: r.decidedBy,
      decided_at: r.decidedBy ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { requestId, itemId };
}
