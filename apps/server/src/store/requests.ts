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
